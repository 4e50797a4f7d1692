import { emailsRoutes } from "./emails.routes";
import { inboxesRoutes } from "./inboxes.routes";

export * from "./inboxes.schemas";
export * from "./emails.schemas";

export const inboxRoutes = [...inboxesRoutes, ...emailsRoutes] as const;

/** Everything the inbox service serves. */
export const inboxServiceRoutes = inboxRoutes;
export * from "./emails.routes";
export * from "./inboxes.routes";
