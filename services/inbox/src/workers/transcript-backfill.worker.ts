import type { Logger, PeriodicTask } from "@burnbox/service-kit/runtime";
import { startPeriodicTask } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import { backfillTranscripts } from "../domain/smtp/backfill-transcripts.use-case";

/** A walk cut short (a failed statement) is walked again after this long. */
const RETRY_INTERVAL_MS = 10 * 60_000;
/** After each statement the walk rests three times as long as it took (the cleanup's default share), at least this long. */
const REST_MIN_MS = 5;

/**
 * Copies the transcripts of mail stored before migration 0018 from `email_transcripts` into the
 * emails' rows (`backfillTranscripts`), once at start, resting between its statements; walked again
 * only if a walk failed or was cut short. Safe with many replicas (the copy is idempotent). Logs
 * what it filled.
 */
export function startTranscriptBackfill(deps: InboxDeps, logger: Logger): PeriodicTask {
  let complete = false;
  let stopping = false;
  const task = startPeriodicTask({
    name: "inbox-transcript-backfill",
    intervalMs: RETRY_INTERVAL_MS,
    immediate: true,
    logger,
    run: async () => {
      if (complete) return;
      let since = performance.now();
      const rest = async () => {
        await new Promise((r) => setTimeout(r, Math.max(REST_MIN_MS, (performance.now() - since) * 3)));
        since = performance.now();
      };
      const walk = await backfillTranscripts(deps, { rest, stopping: () => stopping });
      complete = walk.complete;
      if (walk.filled > 0) logger.info({ filled: walk.filled, complete }, "transcripts copied into the emails' rows");
    },
  });
  return {
    runNow: () => {
      // an explicit run walks again, whatever an earlier walk found
      complete = false;
      return task.runNow();
    },
    stop: () => {
      stopping = true;
      return task.stop();
    },
  };
}
