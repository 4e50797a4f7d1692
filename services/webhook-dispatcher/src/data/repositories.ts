import { RemovedTenantRepository } from "@burnbox/service-kit";
import { DeliveryRepository } from "./delivery.repository";
import { ProcessedEventRepository } from "./processed-event.repository";
import type { Db, Tx } from "./prisma";
import { WebhookRepository } from "./webhook.repository";

/** Every repository, bound to the client or to one transaction. */
export const repositories = (db: Db | Tx) => ({
  webhooks: new WebhookRepository(db),
  deliveries: new DeliveryRepository(db),
  processedEvents: new ProcessedEventRepository(db),
  tenants: new RemovedTenantRepository(db),
});
export type DispatcherRepos = ReturnType<typeof repositories>;
