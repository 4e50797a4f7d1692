import { EmailReceivedData, EmailReceivedEvent } from "@burnbox/contracts";
import type { z } from "zod";
import type { TenancyDeps } from "../deps";
import { bucketOf, domainOf } from "./series";

/**
 * The part of an `email.received` event the count reads, all its consumer checks: the summary,
 * extracted codes and links and authentication results the event also carries are not read here,
 * so not checked again at this hop (issue 39).
 */
export const CountedEmail = EmailReceivedEvent.pick({ id: true, type: true, org_id: true }).extend({
  data: EmailReceivedData.pick({ team_id: true, received_at: true, size_bytes: true, to: true, from: true }).extend({
    // events from before size_bytes had it only in the summary
    summary: EmailReceivedData.shape.summary.unwrap().pick({ size_bytes: true }).optional(),
  }),
});
export type CountedEmail = z.infer<typeof CountedEmail>;

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
