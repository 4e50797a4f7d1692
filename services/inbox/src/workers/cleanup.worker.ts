import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import { pruneDemoQuotas } from "../domain/demo/prune-demo-quotas.use-case";
import { expireInboxes } from "../domain/inboxes/expire-inboxes.use-case";

const BATCH = 200;

/**
 * Removes inboxes whose TTL has lapsed, with their mail, on the first cycle after expiry (and
 * once at start), batch after batch until none is left (demo inboxes included), then the past
 * hours' per-IP demo counts. Several replicas may run it together.
 */
export function startCleanupWorker(deps: InboxDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "inbox-cleanup",
    intervalMs: parseDurationMs(deps.config.workers.cleanup_interval),
    immediate: true,
    logger,
    run: async () => {
      for (;;) {
        const n = await expireInboxes(deps, BATCH);
        if (n > 0) logger.info({ expired: n }, "expired inboxes removed");
        if (n < BATCH) break;
      }
      await pruneDemoQuotas(deps);
    },
  });
}
