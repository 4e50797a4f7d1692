import type { WebhookDomainEvent } from "@burnbox/contracts";
import { traceHeaders } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../deps";
import { deliveryBody } from "./delivery-body";

/**
 * In one transaction: claims the event for `consumer` (a redelivered event schedules nothing) and
 * schedules one delivery, due now, per active webhook of the event's team subscribed to its type.
 * Returns how many were scheduled. A team without such a webhook (most events) is answered by one
 * read, with no transaction and no claim: a redelivery of it asks again and finds the same.
 */
export async function scheduleDeliveries(deps: DispatcherDeps, input: { consumer: string; event: WebhookDomainEvent }): Promise<number> {
  const { event } = input;
  if (!event.org_id || !event.team_id) return 0;
  const scope = { orgId: event.org_id, teamId: event.team_id };
  if (!(await deps.data.repos.deliveries.hasSubscribers(scope, event.type))) return 0;
  return deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, event.id))) return 0;
    // the consumer's span (when traces are recorded): every attempt continues it, wherever it runs
    const traceParent = traceHeaders().traceparent ?? null;
    return repos.deliveries.scheduleForSubscribers(scope, event, deps.now(), (deliveryId) => deliveryBody(deliveryId, event), traceParent);
  });
}
