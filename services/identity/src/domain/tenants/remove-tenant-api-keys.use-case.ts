import { removeInBatches, removeTenantOnce, type Logger, type TenantRemoval } from "@burnbox/service-kit";
import { publishKeyState } from "../api-keys/key-cache";
import type { IdentityDeps } from "../deps";

/** Keys removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 200;

/**
 * Removes every API key of an org or team tenancy deleted (`org.deleted`, `team.deleted`), once per
 * event (`removeTenantOnce`): keys go batch by batch; each batch writes "no such key" into the
 * gateway's cache before it commits (a Redis failure rolls the batch back and the event is
 * retried), so a deleted key is refused at once (401).
 */
export async function removeTenantApiKeys(deps: IdentityDeps, logger: Logger, input: TenantRemoval): Promise<void> {
  const { tenant } = input;
  await removeTenantOnce(deps.data, input, {
    removeAll: () =>
      removeInBatches({
        size: REMOVAL_BATCH,
        logger,
        what: `API keys of ${tenant.kind}`,
        batch: (size) =>
          deps.data.write(async (repos) => {
            const hashes = await repos.apiKeys.removeBatchOf(tenant.scope, size);
            await publishKeyState(
              deps,
              hashes.map((hash) => ({ hash, state: null })),
            );
            return hashes.length;
          }),
      }),
  });
}
