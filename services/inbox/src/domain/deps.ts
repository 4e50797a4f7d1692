import type { NatsConnection, OutboxRelay } from "@burnbox/service-kit";
import type { InboxConfig } from "../config";
import type { Db } from "../data/prisma";
import type { LocalStorage } from "../data/storage";

export interface InboxDeps {
  db: Db;
  nc: NatsConnection;
  relay: OutboxRelay;
  storage: LocalStorage;
  config: InboxConfig;
  now: () => number;
}
