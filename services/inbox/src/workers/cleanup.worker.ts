import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import { pruneDemoQuotas } from "../domain/demo/prune-demo-quotas.use-case";
import { expireInboxes } from "../domain/inboxes/expire-inboxes.use-case";

const BATCH = 200;
/** Emails deleted per transaction while expired inboxes are emptied (expireInboxes). */
const EMAIL_BATCH = 1000;
/**
 * After each batch the worker rests as long as the batch took (at least REST_MIN_MS): the cleanup
 * gets at most half of one database connection's time, so a backlog of expired mail (a hundred
 * thousand inboxes) drains steadily while the intake and the reads keep their pace
 * (docs/performance.md, retention).
 */
const REST_MIN_MS = 5;

/**
 * Removes inboxes whose TTL has lapsed, with their mail, on the first cycle after expiry (and
 * once at start), batch after batch until none is left (demo inboxes included), resting between
 * batches, then the past hours' per-IP demo counts. Several replicas may run it together.
 */
export function startCleanupWorker(deps: InboxDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "inbox-cleanup",
    intervalMs: parseDurationMs(deps.config.workers.cleanup_interval),
    immediate: true,
    logger,
    run: async () => {
      let since = Date.now();
      const rest = async () => {
        const took = Date.now() - since;
        await new Promise((r) => setTimeout(r, Math.max(REST_MIN_MS, took)));
        since = Date.now();
      };
      for (;;) {
        const n = await expireInboxes(deps, { inboxes: BATCH, emails: EMAIL_BATCH, rest });
        if (n > 0) logger.info({ expired: n }, "expired inboxes removed");
        if (n < BATCH) break;
        await rest();
      }
      await pruneDemoQuotas(deps);
    },
  });
}
