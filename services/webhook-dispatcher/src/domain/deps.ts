import type { NatsConnection, OutboxRelay } from "@burnbox/service-kit";
import type { DispatcherConfig } from "../config";
import type { Db } from "../data/prisma";
import type { Resolver } from "./sender";
import type { Allowlist } from "./url-policy";

export interface DispatcherDeps {
  db: Db;
  nc: NatsConnection;
  relay: OutboxRelay;
  config: DispatcherConfig;
  allowed: Allowlist;
  resolver: Resolver;
}
