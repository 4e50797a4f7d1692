import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../domain/deps";
import { clearTransientFailures } from "../domain/webhooks/clear-transient-failures.use-case";

/** Runs the `webhook_retry` job every `workers.webhook_retry_interval`. */
export function startWebhookRetryWorker(deps: DispatcherDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "webhook_retry",
    intervalMs: parseDurationMs(deps.config.workers.webhook_retry_interval),
    logger,
    run: async () => {
      const cleared = await clearTransientFailures(deps);
      if (cleared > 0) logger.info({ cleared }, "cleared transient webhook failure counters");
    },
  });
}
