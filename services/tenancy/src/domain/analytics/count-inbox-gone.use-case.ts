import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/** An inbox expired or was deleted: one fewer active inbox, once per event; lifetime counts stay. */
export async function countInboxGone(
  deps: TenancyDeps,
  consumer: string,
  event: EventOf<"inbox.expired"> | EventOf<"inbox.deleted">,
): Promise<void> {
  if (!event.org_id) return;
  const scope = { orgId: event.org_id, teamId: event.data.team_id };
  await deps.data.hot.analytics.countInboxGoneOnce({ consumer, eventId: event.id }, scope);
}
