import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import { pruneDemoQuotas } from "../domain/demo/prune-demo-quotas.use-case";
import { expireInboxes, type ExpireStepReport } from "../domain/inboxes/expire-inboxes.use-case";

/** Expired inboxes held (and at most removed) per cleanup step. */
const INBOX_BATCH = 200;
/** Emails deleted per cleanup step (one transaction). */
const EMAIL_BATCH = 1000;
/**
 * After each step the worker rests so that its steps take at most `workers.cleanup_share` of the
 * time (0.25 by default: three times as long as the step took, at least REST_MIN_MS), so a backlog
 * of expired mail (a hundred thousand inboxes) drains steadily while the intake and the reads keep
 * their pace (docs/performance.md, retention).
 */
const REST_MIN_MS = 5;

const quantile = (sorted: number[], q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);

/** The median of each tenth of `values`, in order (fewer parts when there are fewer than ten values). */
function tenths(values: number[]): number[] {
  const parts = Math.min(10, values.length);
  return Array.from({ length: parts }, (_, i) => {
    const part = values.slice(Math.floor((i * values.length) / parts), Math.floor(((i + 1) * values.length) / parts)).sort((a, b) => a - b);
    return quantile(part, 0.5);
  });
}

/**
 * Removes inboxes whose TTL has lapsed, with their mail, on the first cycle after expiry (and
 * once at start), step after step until none is left (demo inboxes included), resting between
 * steps, then the past hours' per-IP demo counts. Several replicas may run it together. A run that
 * removed something logs its totals and its steps' timings.
 */
export function startCleanupWorker(deps: InboxDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "inbox-cleanup",
    intervalMs: parseDurationMs(deps.config.workers.cleanup_interval),
    immediate: true,
    logger,
    run: async () => {
      const started = Date.now();
      let since = started;
      const restPerMs = 1 / deps.config.workers.cleanup_share - 1;
      const rest = async () => {
        const took = Date.now() - since;
        await new Promise((r) => setTimeout(r, Math.max(REST_MIN_MS, took * restPerMs)));
        since = Date.now();
      };
      const steps: ExpireStepReport[] = [];
      const expired = await expireInboxes(deps, { inboxes: INBOX_BATCH, emails: EMAIL_BATCH, rest, onStep: (s) => steps.push(s) });
      if (steps.length > 0) {
        const db = steps.map((s) => s.dbMs).sort((a, b) => a - b);
        const files = steps.map((s) => s.filesMs).sort((a, b) => a - b);
        logger.info(
          {
            expired,
            emails: steps.reduce((n, s) => n + s.emails, 0),
            steps: steps.length,
            ms: Date.now() - started,
            step_db_ms: { p50: quantile(db, 0.5), p99: quantile(db, 0.99), max: quantile(db, 1) },
            step_files_ms: { p50: quantile(files, 0.5), p99: quantile(files, 0.99), max: quantile(files, 1) },
            // the median step of each tenth of the run, in order: whether steps slow down as the backlog drains
            step_db_ms_by_tenth: tenths(steps.map((s) => s.dbMs)),
          },
          "expired inboxes removed",
        );
      }
      await pruneDemoQuotas(deps);
    },
  });
}
