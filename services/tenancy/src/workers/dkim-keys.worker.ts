import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { newDkimKey } from "../domain/domains/dkim-key";

/** Domains given a key per run; the rest wait for the next run (or another replica). */
const BATCH = 20;

/**
 * The DKIM backfill (extensions 10): a domain without a key (created before the feature, or by the
 * previous release while a rolling update runs) gets one. At start, then on the domain check's
 * interval; each run claims its batch with FOR UPDATE SKIP LOCKED, so replicas never make two keys
 * for one domain, and a key once set is never replaced. Without `encryption.key` it does nothing
 * (a private key is never stored in clear).
 */
export function startDkimKeysWorker(deps: TenancyDeps, logger: Logger): PeriodicTask {
  return startPeriodicTask({
    name: "dkim-keys",
    intervalMs: parseDurationMs(deps.config.workers.domain_verify_interval),
    immediate: true,
    logger,
    run: async () => {
      if (!deps.secrets.enabled) return 0;
      return deps.data.write(async (repos) => {
        const due = await repos.domains.claimWithoutDkim(BATCH);
        for (const d of due) {
          const key = await newDkimKey(deps.secrets);
          if (key) await repos.domains.setDkim(d.id, key);
        }
        if (due.length > 0) logger.info({ domains: due.length }, "DKIM keys made for domains that had none");
        return due.length;
      });
    },
  });
}
