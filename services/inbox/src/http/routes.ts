import type { inboxServiceRoutes } from "@burnbox/contracts";

// The contracts' root does not export the per-resource arrays (inboxesRoutes, emailsRoutes) yet,
// so each resource's routes are picked here from the service's by operation id. A route missing
// from both lists has no handler, which bindRoutes in app.ts refuses to compile.
type InboxRoute = (typeof inboxServiceRoutes)[number];
type RoutesOf<Ids extends InboxRoute["operationId"]> = ReadonlyArray<Extract<InboxRoute, { operationId: Ids }>>;

export type InboxesRoutes = RoutesOf<"createInbox" | "listInboxes" | "getInbox" | "listTeamInboxes">;
export type EmailsRoutes = RoutesOf<"listEmails" | "getEmail">;
