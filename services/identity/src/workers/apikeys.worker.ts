import { startPeriodicTask, type PeriodicTask } from "@burnbox/service-kit/runtime";
import { deleteExpiredApiKeys } from "../domain/api-keys/delete-expired-api-keys";
import { flushApiKeyUsage } from "../domain/api-keys/flush-usage";
import type { IdentityDeps } from "../domain/deps";

export interface ApiKeyWorkers {
  /** Writes the usage the gateway counted in Redis to Postgres. */
  usageFlush: PeriodicTask;
  /** Hard-deletes expired keys. */
  expiredCleanup: PeriodicTask;
  /** Stops both, then flushes the usage counted so far once more. */
  stop(): Promise<void>;
}

export function startApiKeyWorkers(deps: IdentityDeps, opts: { flushMs: number; cleanupMs: number }): ApiKeyWorkers {
  const usageFlush = startPeriodicTask({
    name: "apikey-usage-flush",
    intervalMs: opts.flushMs,
    run: () => flushApiKeyUsage(deps),
    logger: deps.logger,
  });
  const expiredCleanup = startPeriodicTask({
    name: "apikey-expiry-cleanup",
    intervalMs: opts.cleanupMs,
    run: async () => {
      const deleted = await deleteExpiredApiKeys(deps);
      if (deleted > 0) deps.logger.info({ deleted }, "expired API keys deleted");
    },
    logger: deps.logger,
  });
  return {
    usageFlush,
    expiredCleanup,
    stop: async () => {
      await Promise.all([usageFlush.stop(), expiredCleanup.stop()]);
      await flushApiKeyUsage(deps).catch(() => 0);
    },
  };
}
