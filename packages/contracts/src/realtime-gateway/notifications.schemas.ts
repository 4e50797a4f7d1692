import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** The kinds of notification (contract notes: who gets which). */
export const NOTIFICATION_TYPES = ["email.received", "inbox.created", "inbox.expired", "invite.accepted", "team.member_added"] as const;
export const NotificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationType>;

export const Notification = z
  .object({
    id: Uuid,
    type: NotificationType,
    title: z.string(),
    message: z.string(),
    /** The ids of what it is about: `{inbox_id, email_id, from, subject}` or `{inbox_id, full_address}`. */
    data: z.record(z.string(), z.unknown()),
    is_read: z.boolean(),
    created_at: Timestamp,
  })
  .openapi("Notification");
export type Notification = z.infer<typeof Notification>;

export const ListNotificationsQuery = PaginationQuery.extend({
  unread: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ type: "boolean" }),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuery>;

export const MarkAllNotificationsReadResult = z.object({ marked: z.number().int() }).openapi("MarkAllNotificationsReadResult");

/** At most this many notification sockets per user; the next one is closed with `NOTIFICATION_SOCKET_LIMIT_CLOSE`. */
export const MAX_NOTIFICATION_SOCKETS_PER_USER = 5;
export const NOTIFICATION_SOCKET_LIMIT_CLOSE = 4429;

/**
 * Core NATS subject on which the writer of the previous release announced a stored notification to
 * every realtime replica. This release still listens on it (for the pushes of a previous-release
 * writer during a rolling update: nothing is published there once every replica is of this
 * release) but publishes on `notificationUserSubject`.
 */
export const notificationPushSubject = (namespace: string): string => `${namespace}.realtime.notification_created`;
/**
 * Core NATS subject on which the writer announces a stored notification for one user: only the
 * replicas holding a notification socket of that user subscribe to it (issue 39).
 */
export const notificationUserSubject = (namespace: string, userId: string): string =>
  `${namespace}.realtime.notification_created.${userId}`;
/** What travels on `notificationUserSubject` (and `notificationPushSubject`). */
export const NotificationPush = z.object({ user_id: Uuid, notification: Notification });
export type NotificationPush = z.infer<typeof NotificationPush>;
