import { WEBHOOK_EVENTS, type WebhookEvent } from "@burnbox/contracts";
import { startConsumer, type StartConsumers } from "@burnbox/service-kit/messaging";
import { mayHaveDeliveries } from "../domain/deliveries/may-have-deliveries";
import { scheduleDeliveries } from "../domain/deliveries/schedule-deliveries.use-case";
import type { DispatcherDeps } from "../domain/deps";

/** The durable consumer of one webhook event type (one per type, shared by replicas). */
export const dispatchConsumerName = (type: WebhookEvent): string => `webhook-dispatcher-${type.replace(/\./g, "_")}`;

/**
 * One durable consumer per webhook event type: schedules the event's deliveries. Sending happens
 * in the delivery worker, so a slow receiver never holds up the stream; `onScheduled` wakes it.
 * The worker starts beside the consumers (it is not in the deps), so this returns the start
 * function, of the shape every service's consumers have, with `onScheduled` bound.
 */
export function dispatchConsumers(onScheduled: () => void): StartConsumers<DispatcherDeps> {
  return (deps, logger) =>
    Promise.all(
      WEBHOOK_EVENTS.map((eventType) => {
        const consumer = dispatchConsumerName(eventType);
        return startConsumer({
          nc: deps.nc,
          namespace: deps.config.nats.namespace,
          durable: consumer,
          eventType,
          logger,
          // a team with no webhook for the type (most events): skipped before the schema check
          wanted: (raw) => mayHaveDeliveries(deps, eventType, raw),
          handler: async (event) => {
            if ((await scheduleDeliveries(deps, { consumer, event })) > 0) onScheduled();
          },
        });
      }),
    );
}
