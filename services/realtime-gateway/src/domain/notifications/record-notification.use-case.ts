import { randomUUID } from "node:crypto";
import { notificationUserSubject, type Notification, type NotificationPush } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";
import { notificationForEvent, type NotifyingEvent } from "./notification-for-event";

/**
 * Stores the notification an event gives (system-driven: no caller, no access check). The row is
 * unique per event and user, so a redelivery or a second replica writes nothing (and announces
 * nothing). Once written, the row is announced on the user's own subject, which the replicas
 * holding a socket of the user subscribe to, and they push it to those sockets. Returns the new notification, if any.
 */
export async function recordNotification(deps: RealtimeDeps, input: { event: NotifyingEvent }): Promise<Notification | null> {
  const content = notificationForEvent(input.event);
  if (!content) return null;
  const created = await deps.data.hot.notifications.create({
    id: randomUUID(),
    eventId: input.event.id,
    createdAt: new Date(input.event.occurred_at),
    ...content,
  });
  if (created) {
    const push: NotificationPush = { user_id: content.userId, notification: created };
    deps.nc.publish(notificationUserSubject(deps.namespace, content.userId), JSON.stringify(push));
  }
  return created;
}
