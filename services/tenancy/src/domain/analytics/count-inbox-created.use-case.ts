import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { bucketOf } from "./series";

/** Counts a new inbox (lifetime, active, and on its UTC day and hour) once per event. */
export async function countInboxCreated(deps: TenancyDeps, consumer: string, event: EventOf<"inbox.created">): Promise<void> {
  if (!event.org_id) return;
  const scope = { orgId: event.org_id, teamId: event.data.team_id };
  const at = bucketOf(new Date(event.occurred_at));
  await deps.data.hot.analytics.countInboxCreatedOnce({ consumer, eventId: event.id }, scope, at);
}
