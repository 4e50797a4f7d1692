import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { checkDomainDns } from "../domain/domains/check-domain-dns";

/** Domains checked per run; the rest wait for the next run (or another replica). */
const BATCH = 20;

/**
 * Re-checks unverified domains not checked within the interval. Each run claims its batch with
 * FOR UPDATE SKIP LOCKED inside one transaction, so replicas never check the same domain at once.
 */
export function startDomainVerifyWorker(deps: TenancyDeps, logger: Logger): PeriodicTask {
  const intervalMs = parseDurationMs(deps.config.workers.domain_verify_interval);
  return startPeriodicTask({
    name: "domain-verify",
    intervalMs,
    logger,
    run: () =>
      deps.data.write(async (repos, events) => {
        const due = await repos.domains.claimDue(new Date(deps.now() - intervalMs), BATCH);
        for (const d of due) {
          const domain = await repos.domains.get({ orgId: d.orgId }, d.domainId);
          if (domain) await checkDomainDns(deps, repos, events, { scope: { orgId: d.orgId }, domain, trigger: "worker", ctx: null });
        }
        return due.length;
      }),
  });
}
