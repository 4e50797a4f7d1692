import { RpcName } from "@burnbox/contracts";
import { serveRpc, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { computeAdminStats } from "../domain/admin-stats/compute-admin-stats";
import type { TenancyDeps } from "../domain/deps";

/** `tenancy.admin_stats`: the realtime gateway's admin-stats stream asks once per interval per replica. */
export function serveAdminStatsRpc(nc: NatsConnection, deps: TenancyDeps, logger: Logger): { stop(): Promise<void> } {
  return serveRpc(nc, deps.config.nats.namespace, RpcName.adminStats, () => computeAdminStats(deps), logger);
}
