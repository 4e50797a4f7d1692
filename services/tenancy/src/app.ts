import { startOutboxRelay, serveApi, type Infra } from "@burnbox/service-kit";
import type { TenancyConfig } from "./config";
import { createPrisma } from "./data/prisma";
import type { TenancyDeps } from "./domain/deps";
import { tenancyRouter } from "./http/tenancy.routes";
import { startInboxCountConsumers } from "./messaging/inbox-counts.consumer";
import { serveTenancyRpc } from "./messaging/tenancy.rpc";

export interface RunningService {
  port: number;
  deps: TenancyDeps;
  stop(): Promise<void>;
}

/** Orgs, teams, domains and assignments, and the RBAC decision for every other service. */
export async function startService(config: TenancyConfig, infra: Infra): Promise<RunningService> {
  if (!infra.pool) throw new Error("tenancy needs its database");
  const db = createPrisma(config.database.url);
  const relay = startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger });
  const deps: TenancyDeps = { db, relay, config };
  const rpcs = serveTenancyRpc(infra.nc, deps, infra.logger);
  const consumers = await startInboxCountConsumers(infra.nc, deps, infra.logger);
  const server = await serveApi({ config, infra, routers: [tenancyRouter(deps)] });
  return {
    port: server.port,
    deps,
    stop: async () => {
      await server.close();
      await Promise.all([...rpcs, ...consumers].map((s) => s.stop()));
      await relay.stop();
      await db.$disconnect();
    },
  };
}
