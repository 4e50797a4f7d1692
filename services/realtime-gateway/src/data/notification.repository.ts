import type { Notification, NotificationType } from "@burnbox/contracts";
import type { Db, Prisma, Tx } from "./prisma";

type NotificationRow = Prisma.NotificationGetPayload<object>;

export function toNotification(n: NotificationRow): Notification {
  return {
    id: n.id,
    type: n.type as NotificationType,
    title: n.title,
    message: n.message,
    data: n.data as Record<string, unknown>,
    is_read: n.isRead,
    created_at: n.createdAt.toISOString(),
  };
}

export interface NewNotification {
  id: string;
  userId: string;
  eventId: string;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, unknown>;
  /** When the event happened: the list's order does not depend on which replica wrote first. */
  createdAt: Date;
}

/** A user's notifications: every method takes the user, and another user's row matches nothing. */
export class NotificationRepository {
  constructor(private readonly db: Db | Tx) {}

  /**
   * Writes the notification of one event for one user; null when that event already gave them one.
   * One statement, no transaction: the unique (event, user) key is the idempotency guard, so a
   * redelivery or a second replica writes nothing. Raw because it runs for every received email.
   */
  async create(fields: NewNotification): Promise<Notification | null> {
    const rows = await this.db.$queryRaw<NotificationRow[]>`
      INSERT INTO notifications (id, user_id, event_id, type, title, message, data, created_at)
      VALUES (${fields.id}::uuid, ${fields.userId}::uuid, ${fields.eventId}::uuid, ${fields.type}, ${fields.title},
        ${fields.message}, ${JSON.stringify(fields.data)}::jsonb, ${fields.createdAt})
      ON CONFLICT (event_id, user_id) DO NOTHING
      RETURNING id::text, user_id::text AS "userId", event_id::text AS "eventId", type, title, message, data,
        is_read AS "isRead", created_at AS "createdAt"`;
    const row = rows[0];
    return row ? toNotification(row) : null;
  }

  async list(userId: string, filter: { unreadOnly: boolean }, window: { skip: number; take: number }): Promise<Notification[]> {
    const rows = await this.db.notification.findMany({
      where: { userId, ...(filter.unreadOnly ? { isRead: false } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toNotification);
  }

  count(userId: string, filter: { unreadOnly: boolean }): Promise<number> {
    return this.db.notification.count({ where: { userId, ...(filter.unreadOnly ? { isRead: false } : {}) } });
  }

  /** Marks the user's notification read; null when they have none with that id. */
  async markRead(userId: string, id: string): Promise<Notification | null> {
    const { count } = await this.db.notification.updateMany({ where: { id, userId }, data: { isRead: true } });
    if (count === 0) return null;
    const row = await this.db.notification.findFirst({ where: { id, userId } });
    return row && toNotification(row);
  }

  async markAllRead(userId: string): Promise<number> {
    const { count } = await this.db.notification.updateMany({ where: { userId, isRead: false }, data: { isRead: true } });
    return count;
  }

  /** False when the user has no notification with that id. */
  async delete(userId: string, id: string): Promise<boolean> {
    const { count } = await this.db.notification.deleteMany({ where: { id, userId } });
    return count > 0;
  }

  async deleteAll(userId: string): Promise<number> {
    const { count } = await this.db.notification.deleteMany({ where: { userId } });
    return count;
  }
}
