import type { TenancyDeps } from "../deps";
import type { CountedEmail } from "./counted-email";
import { bucketOf, domainOf } from "./series";

/**
 * Counts one received email in its team's, day's, hour's, receiving domain's and sender
 * domain's aggregates, in the one statement that also marks the event processed: a redelivered
 * event changes nothing. The size is the event's (older events without it count 0 bytes).
 */
export async function countEmailReceived(deps: TenancyDeps, consumer: string, event: CountedEmail): Promise<void> {
  if (!event.org_id) return;
  const scope = { orgId: event.org_id, teamId: event.data.team_id };
  const at = bucketOf(new Date(event.data.received_at));
  const bytes = event.data.size_bytes ?? event.data.summary?.size_bytes ?? 0;
  const domain = domainOf(event.data.to);
  const senderDomain = domainOf(event.data.from);
  await deps.data.hot.analytics.countEmailOnce({ consumer, eventId: event.id }, scope, at, { bytes, domain, senderDomain });
}
