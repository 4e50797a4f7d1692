import type { OutboxRelay } from "@burnbox/service-kit";
import type { TenancyConfig } from "../config";
import type { Db } from "../data/prisma";

/** What every tenancy use case receives: explicit dependencies, no globals. */
export interface TenancyDeps {
  db: Db;
  relay: OutboxRelay;
  config: TenancyConfig;
}
