import { NotificationPush, notificationPushSubject } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../domain/deps";
import { NOTIFYING_EVENTS } from "../domain/notifications/notification-for-event";
import { pushNotification } from "../domain/notifications/push-notification.use-case";
import { recordNotification } from "../domain/notifications/record-notification.use-case";

/** The durable consumer that stores one event type's notifications (one per type, shared by replicas). */
export const notificationConsumerName = (type: string): string => `realtime-gateway-notifications-${type.replace(/\./g, "_")}`;

/** Stores notifications: one durable consumer per event type, each message handled by one replica. */
export function startNotificationConsumers(deps: RealtimeDeps, logger: Logger): Promise<RunningConsumer[]> {
  return Promise.all(
    NOTIFYING_EVENTS.map((eventType) => {
      const consumer = notificationConsumerName(eventType);
      return startConsumer({
        nc: deps.nc,
        namespace: deps.namespace,
        durable: consumer,
        eventType,
        logger,
        // the notifications linger to go several to a statement (NOTIFICATION_LINGER_MS): enough in flight to fill one
        concurrency: 64,
        handler: async (event) => {
          await recordNotification(deps, { event });
        },
      });
    }),
  );
}

/**
 * Every replica hears of every stored notification (a plain subscription, not a shared consumer)
 * and pushes it to the user's sockets it holds.
 */
export function startNotificationPush(deps: RealtimeDeps, logger: Logger): { stop(): Promise<void> } {
  const sub = deps.nc.subscribe(notificationPushSubject(deps.namespace), {
    callback: (err, msg) => {
      if (err) return logger.warn({ err }, "notification push subscription error");
      let raw: unknown;
      try {
        raw = JSON.parse(msg.string());
      } catch {
        return logger.warn("notification push: not JSON; dropped");
      }
      const push = NotificationPush.safeParse(raw);
      if (!push.success) return logger.warn("notification push: unexpected shape; dropped");
      pushNotification(deps, push.data);
    },
  });
  return { stop: () => sub.drain() };
}
