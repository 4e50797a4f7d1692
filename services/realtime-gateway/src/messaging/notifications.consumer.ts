import { EventType, NotificationPush, notificationPushSubject, notificationUserSubject } from "@burnbox/contracts";
import { startConsumer, type NatsConnection, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { Hub } from "../adapters/ws-hub";
import type { RealtimeDeps } from "../domain/deps";
import { NOTIFYING_EVENTS, NotifiedEmail } from "../domain/notifications/notification-for-event";
import { pushNotification } from "../domain/notifications/push-notification.use-case";
import { recordNotification } from "../domain/notifications/record-notification.use-case";
import { LiveSubjects } from "./live-subjects";

/** The durable consumer that stores one event type's notifications (one per type, shared by replicas). */
export const notificationConsumerName = (type: string): string => `realtime-gateway-notifications-${type.replace(/\./g, "_")}`;

/** Stores notifications: one durable consumer per event type, each message handled by one replica. */
export function startNotificationConsumers(deps: RealtimeDeps, logger: Logger): Promise<RunningConsumer[]> {
  return Promise.all(
    NOTIFYING_EVENTS.map((eventType) => {
      const consumer = notificationConsumerName(eventType);
      // a received email's notification checks only what it reads (NotifiedEmail)
      if (eventType === EventType.emailReceived) {
        return startConsumer({
          nc: deps.nc,
          namespace: deps.namespace,
          durable: consumer,
          eventType,
          logger,
          // the notifications linger to go several to a statement (NOTIFICATION_LINGER_MS): enough in flight to fill one
          concurrency: 64,
          schema: NotifiedEmail,
          handler: async (event) => {
            await recordNotification(deps, { event });
          },
        });
      }
      return startConsumer({
        nc: deps.nc,
        namespace: deps.namespace,
        durable: consumer,
        eventType,
        logger,
        handler: async (event) => {
          await recordNotification(deps, { event });
        },
      });
    }),
  );
}

/** A push's parsed JSON, sent to its user's sockets here when it has the expected shape. */
export function deliverNotificationPush(deps: RealtimeDeps, logger: Logger, raw: unknown): void {
  const push = NotificationPush.safeParse(raw);
  if (!push.success) return logger.warn("notification push: unexpected shape; dropped");
  pushNotification(deps, push.data);
}

/**
 * The users whose stored notifications this replica is told of: a subscription to a user's own
 * subject (`notificationUserSubject`) while this replica holds a notification socket of theirs,
 * and none otherwise, so a notification of a user with no socket here never reaches this process.
 */
export function liveNotifications(
  deps: { nc: NatsConnection; namespace: string; notificationHub: Hub; logger: Logger },
  push: (raw: unknown) => void,
): LiveSubjects {
  return new LiveSubjects(
    {
      nc: deps.nc,
      hub: deps.notificationHub,
      logger: deps.logger,
      keyName: "user_id",
      subject: (userId) => notificationUserSubject(deps.namespace, userId),
    },
    push,
  );
}

/**
 * The previous release's writers announced every stored notification on one subject heard by
 * every replica (`notificationPushSubject`). This replica still hears it, for the pushes of such a
 * writer during a rolling update; nothing is published there once every replica is of this
 * release, so it then costs nothing. The next release drops it.
 */
export function startLegacyNotificationPush(deps: RealtimeDeps, logger: Logger): { stop(): Promise<void> } {
  const sub = deps.nc.subscribe(notificationPushSubject(deps.namespace), {
    callback: (err, msg) => {
      if (err) return logger.warn({ err }, "notification push subscription error");
      let raw: unknown;
      try {
        raw = JSON.parse(msg.string());
      } catch {
        return logger.warn("notification push: not JSON; dropped");
      }
      deliverNotificationPush(deps, logger, raw);
    },
  });
  return { stop: () => sub.drain() };
}
