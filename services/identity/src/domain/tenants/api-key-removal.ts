import type { Logger } from "@burnbox/service-kit/runtime";
import { removeInBatches, type RemovedTenant } from "@burnbox/tenant-removal";
import { tombstoneKeys } from "../api-keys/key-cache";
import type { IdentityDeps } from "../deps";

/** Keys removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 200;

/**
 * Deletes every API key of a removed org or team, batch by batch; each batch writes "no such key"
 * into the gateway's cache before it commits (a Redis failure rolls the batch back). What the
 * event's removal (`removeTenantApiKeys`) and tenancy's RPC (`removeTenantApiKeysNow`) both run.
 */
export function removeAllKeys(deps: IdentityDeps, logger: Logger, tenant: RemovedTenant): Promise<number> {
  return removeInBatches({
    size: REMOVAL_BATCH,
    logger,
    what: `API keys of ${tenant.kind}`,
    batch: (size) =>
      deps.data.write(async (repos) => {
        const hashes = await repos.apiKeys.removeBatchOf(tenant.scope, size);
        await tombstoneKeys(deps.redis, deps.config.redis.key_prefix, hashes);
        return hashes.length;
      }),
  });
}
