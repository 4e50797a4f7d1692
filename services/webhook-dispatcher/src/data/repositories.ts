import { ProcessedEventRepository, type PgPool } from "@burnbox/service-kit/data";
import type { ChangeBroadcasts, ChangeLog } from "@burnbox/service-kit/messaging";
import { RemovedTenantRepository } from "@burnbox/tenant-removal";
import { DeliveryQueue } from "./delivery-queue.repository";
import { DeliveryRepository } from "./delivery.repository";
import type { Db, Tx } from "./prisma";
import { WebhookRepository } from "./webhook.repository";

/** The transaction-bound set (`data.repos`, and what `write()` hands its change): bound to the client or to one transaction. */
export const repositories = (db: Db | Tx, changes?: ChangeLog) => ({
  webhooks: new WebhookRepository(db, changes),
  deliveries: new DeliveryRepository(db),
  processedEvents: new ProcessedEventRepository(db),
  tenants: new RemovedTenantRepository(db),
});
export type DispatcherRepos = ReturnType<typeof repositories>;

/**
 * The pool-only hot-path set (`data.hot`): one per process, never in a transaction. `deliveries`:
 * the delivery queue (scheduling, the worker's claims and records, the subscriber cache).
 */
export const hotRepositories = (pool: PgPool, broadcasts: ChangeBroadcasts) => ({
  deliveries: new DeliveryQueue(pool, broadcasts),
});
export type DispatcherHot = ReturnType<typeof hotRepositories>;
