import type { Allowlist, NatsConnection, UnitOfWork } from "@burnbox/service-kit";
import type { DispatcherConfig } from "../config";
import type { DeliveryQueue } from "../data/delivery-queue.repository";
import type { DispatcherRepos } from "../data/repositories";
import type { Resolver } from "./sender";

export interface DispatcherDeps {
  /** Repositories for reads, `write(change)` for a change with its audit entries. */
  data: UnitOfWork<DispatcherRepos>;
  /** The delivery worker's queue (system work across tenants). */
  queue: DeliveryQueue;
  nc: NatsConnection;
  config: DispatcherConfig;
  allowed: Allowlist;
  resolver: Resolver;
  now: () => Date;
}
