import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";

/** Entries deleted per statement: short transactions, so the consumer's inserts never wait long. */
const BATCH = 5_000;
/** Batches per run at most; the rest waits for the next run (a large backlog drains over a few runs). */
const MAX_BATCHES = 200;

/**
 * Deletes audit entries older than `audit.retention`, in batches. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so replicas running at once share the work rather than collide.
 */
export function startAuditRetentionWorker(deps: TenancyDeps, logger: Logger): PeriodicTask {
  const retentionMs = parseDurationMs(deps.config.audit.retention);
  return startPeriodicTask({
    name: "audit-retention",
    intervalMs: parseDurationMs(deps.config.audit.retention_interval),
    logger,
    run: async () => {
      const cutoff = new Date(deps.now() - retentionMs);
      let total = 0;
      for (let i = 0; i < MAX_BATCHES; i++) {
        const deleted = await deps.data.repos.audit.deleteOlderThan(cutoff, BATCH);
        total += deleted;
        if (deleted < BATCH) break;
      }
      if (total > 0) logger.info({ deleted: total, cutoff: cutoff.toISOString() }, "expired audit entries deleted");
      return total;
    },
  });
}
