import type { Logger } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";

const BATCH = 500;

/**
 * The data migration after `0004_sealed_secret`, run at every start before the workers: seals with
 * `encryption.key` each signing secret a previous release stored in clear, and empties the clear
 * column (SQL cannot do it: it has no key). Idempotent and safe on several replicas at once. Without
 * a key nothing can be sealed: those webhooks keep signing from the clear column, and the start-up
 * log says so, until a key is configured. Returns how many were sealed.
 */
export async function sealStoredSecrets(deps: DispatcherDeps, logger: Logger): Promise<number> {
  const webhooks = deps.data.repos.webhooks;
  if (!deps.secrets.enabled) {
    const waiting = (await webhooks.plaintextSecrets(1)).length;
    if (waiting > 0)
      logger.warn("webhook signing secrets are stored in clear and cannot be sealed: set encryption.key (BB_ENCRYPTION_KEY) and restart");
    return 0;
  }
  let sealed = 0;
  for (;;) {
    const batch = await webhooks.plaintextSecrets(BATCH);
    let changed = 0;
    for (const row of batch) {
      if (await webhooks.sealSecret(row.id, row.secret, deps.secrets.seal(row.secret))) changed++;
    }
    sealed += changed;
    // a row another replica sealed meanwhile is gone from the next batch; stop when nothing is left or nothing moved
    if (batch.length < BATCH || changed === 0) break;
  }
  if (sealed > 0) logger.info({ sealed }, "webhook signing secrets sealed with encryption.key");
  return sealed;
}
