import type { Notification, NotificationType } from "@burnbox/contracts";
import { groupedStatement, HotRepository, type PoolSql } from "@burnbox/service-kit/data";
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

/** At most this many notifications are written by one statement. */
const MAX_NOTIFICATIONS_PER_STATEMENT = 128;
/**
 * How long a notification waits for others to go in its statement: at a steady hundred emails a
 * second, one statement (one commit, one push write) for several instead of one each; far below
 * what a person sees (docs/performance.md, issue 39).
 */
export const NOTIFICATION_LINGER_MS = 25;

/**
 * Several notifications in one statement, each written unless its (event, user) already has one
 * (a row given twice in one batch is written once): resolves, per notification, the row written
 * or null.
 */
async function createMany(sql: PoolSql, batch: NewNotification[]): Promise<Array<Notification | null>> {
  const col = <T>(f: (n: NewNotification) => T) => batch.map(f);
  const rows = await sql<NotificationRow>`
    INSERT INTO notifications (id, user_id, event_id, type, title, message, data, created_at)
    SELECT id, user_id, event_id, type, title, message, data::jsonb, created_at
    FROM unnest(${col((n) => n.id)}::uuid[], ${col((n) => n.userId)}::uuid[], ${col((n) => n.eventId)}::uuid[],
      ${col((n) => n.type)}::text[], ${col((n) => n.title)}::text[], ${col((n) => n.message)}::text[],
      ${col((n) => JSON.stringify(n.data))}::text[], ${col((n) => n.createdAt)}::timestamptz[])
      AS t(id, user_id, event_id, type, title, message, data, created_at)
    ON CONFLICT (event_id, user_id) DO NOTHING
    RETURNING id::text, user_id::text AS "userId", event_id::text AS "eventId", type, title, message, data,
      is_read AS "isRead", created_at AS "createdAt"`;
  const written = new Map(rows.map((r) => [r.id, r]));
  return batch.map((n) => {
    const row = written.get(n.id);
    return row ? toNotification(row) : null;
  });
}

/**
 * The notifications' writer on the hot path (`data.hot.notifications`, pool-only): it runs for
 * every received email, where Prisma's runtime cost more than the statement.
 */
export class NotificationWriter extends HotRepository {
  constructor(sql: PoolSql) {
    super();
    this.createOne = groupedStatement({
      sql,
      write: createMany,
      maxBatch: MAX_NOTIFICATIONS_PER_STATEMENT,
      lingerMs: NOTIFICATION_LINGER_MS,
    });
  }

  private readonly createOne: (fields: NewNotification) => Promise<Notification | null>;

  /**
   * Writes the notification of one event for one user; null when that event already gave them one.
   * One statement, no transaction: the unique (event, user) key is the idempotency guard, so a
   * redelivery or a second replica writes nothing. The notifications asked for while a statement
   * is in flight, or within `NOTIFICATION_LINGER_MS` of the first, go together.
   */
  create(fields: NewNotification): Promise<Notification | null> {
    return this.createOne(fields);
  }
}

/** A user's notifications: every method takes the user, and another user's row matches nothing. */
export class NotificationRepository {
  constructor(private readonly db: Db | Tx) {}

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
