import { startPeriodicTask, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../domain/deps";
import { seedRevocations } from "../domain/sessions/revocation";

/** Keeps the gateway's revocation list in Redis complete: re-seeds it at start and whenever Redis lost it. */
export function startRevocationSeeding(deps: IdentityDeps, opts: { intervalMs: number }): PeriodicTask {
  return startPeriodicTask({
    name: "revocation-seed",
    intervalMs: opts.intervalMs,
    immediate: true,
    run: async () => {
      const seeded = await seedRevocations(deps);
      if (seeded > 0) deps.logger.info({ sessions: seeded }, "revoked sessions re-seeded into Redis");
    },
    logger: deps.logger,
  });
}
