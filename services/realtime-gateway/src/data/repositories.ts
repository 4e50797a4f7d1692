import type { PoolSql } from "@burnbox/service-kit";
import { NotificationRepository } from "./notification.repository";
import { ProcessedEventRepository } from "./processed-event.repository";
import type { Db, Tx } from "./prisma";

/** Every repository, bound to the client or to one transaction; `sql` is the pool for the hot single statements. */
export const repositories = (db: Db | Tx, sql?: PoolSql) => ({
  notifications: new NotificationRepository(db, sql),
  processedEvents: new ProcessedEventRepository(db),
});
export type RealtimeRepos = ReturnType<typeof repositories>;
