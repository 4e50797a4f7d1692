import { randomUUID } from "node:crypto";
import type { WebhookDomainEvent } from "@burnbox/contracts";
import { traceHeaders } from "@burnbox/service-kit/telemetry";
import type { DispatcherDeps } from "../deps";
import { deliveryBody } from "./delivery-body";

/**
 * Claims the event for `consumer` (a redelivered event schedules nothing) and schedules one
 * delivery, due now, per active webhook of the event's team subscribed to its type: one statement,
 * after one read of the team's subscribers. Returns how many were scheduled. A team without such a
 * webhook (most events) is answered by that read alone, with no claim: a redelivery of it asks
 * again and finds the same. A webhook created between the read and the write is not sent this
 * event, exactly as if it had been created a moment after the event was handled.
 */
export async function scheduleDeliveries(deps: DispatcherDeps, input: { consumer: string; event: WebhookDomainEvent }): Promise<number> {
  const { event } = input;
  if (!event.org_id || !event.team_id) return 0;
  const scope = { orgId: event.org_id, teamId: event.team_id };
  const webhooks = await deps.data.hot.deliveries.subscribers(scope, event.type);
  if (webhooks.length === 0) return 0;
  const deliveries = webhooks.map((webhookId) => {
    const id = randomUUID();
    return { id, webhookId, body: deliveryBody(id, event) };
  });
  // the consumer's span (when traces are recorded): every attempt continues it, wherever it runs
  const traceParent = traceHeaders().traceparent ?? null;
  return deps.data.hot.deliveries.schedule(scope, { consumer: input.consumer, event, at: new Date(deps.now()), traceParent, deliveries });
}
