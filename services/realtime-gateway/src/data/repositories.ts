import { ProcessedEventRepository, poolSql, type PgPool } from "@burnbox/service-kit/data";
import { NotificationRepository, NotificationWriter } from "./notification.repository";
import type { Db, Tx } from "./prisma";

/** The transaction-bound set (`data.repos`, and what `write()` hands its change): bound to the client or to one transaction. */
export const repositories = (db: Db | Tx) => ({
  notifications: new NotificationRepository(db),
  processedEvents: new ProcessedEventRepository(db),
});
export type RealtimeRepos = ReturnType<typeof repositories>;

/**
 * The pool-only hot-path set (`data.hot`): one per process, never in a transaction.
 * `notifications`: the notification of each event, written by grouped statements.
 */
export const hotRepositories = (pool: PgPool) => ({
  notifications: new NotificationWriter(poolSql(pool)),
});
export type RealtimeHot = ReturnType<typeof hotRepositories>;
