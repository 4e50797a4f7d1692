import { parseDurationMs } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";

/** The `webhook_retry` worker (spec 3.3): clears a failure_count of 1 or 2 on active webhooks. */
export async function clearTransientFailures(deps: DispatcherDeps): Promise<number> {
  const res = await deps.db.webhook.updateMany({ where: { active: true, failureCount: { in: [1, 2] } }, data: { failureCount: 0 } });
  return res.count;
}

export function startWebhookRetryWorker(deps: DispatcherDeps, logger: Logger) {
  const timer = setInterval(() => {
    clearTransientFailures(deps)
      .then((n) => n > 0 && logger.info({ cleared: n }, "cleared transient webhook failure counters"))
      .catch((err: unknown) => logger.warn({ err }, "webhook_retry cycle failed"));
  }, parseDurationMs(deps.config.workers.webhook_retry_interval));
  return {
    stop: () => {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}
