import { NotificationRepository } from "./notification.repository";
import { ProcessedEventRepository } from "./processed-event.repository";
import type { Db, Tx } from "./prisma";

/** Every repository, bound to the client or to one transaction. */
export const repositories = (db: Db | Tx) => ({
  notifications: new NotificationRepository(db),
  processedEvents: new ProcessedEventRepository(db),
});
export type RealtimeRepos = ReturnType<typeof repositories>;
