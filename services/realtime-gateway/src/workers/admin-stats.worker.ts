import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import { pushAdminStats } from "../domain/admin-stats/push-admin-stats.use-case";
import type { RealtimeDeps } from "../domain/deps";

/** Sends the admin sockets of this replica the platform figures every `ws.admin_stats_interval_ms` (10 s). */
export function startAdminStatsPush(deps: RealtimeDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "admin-stats-push",
    intervalMs: deps.adminStats.intervalMs,
    jitter: 0,
    logger,
    run: () => pushAdminStats(deps),
  });
}
