import type { Logger } from "@burnbox/service-kit/runtime";
import { removeInBatches, removeTenantOnce, type RemovedTenant, type TenantRemoval } from "@burnbox/tenant-removal";
import type { IdentityDeps } from "../deps";

/** Keys removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 200;

/**
 * Removes every API key of an org or team tenancy deleted (`org.deleted`, `team.deleted`), once per
 * event (`removeTenantOnce`): keys go batch by batch; each batch writes "no such key" into the
 * gateway's cache before it commits (a Redis failure rolls the batch back and the event is
 * retried), so a deleted key is refused at once (401). Tenancy usually did it already, before it
 * answered the deletion (`removeTenantApiKeysNow`); the event then finds nothing left.
 */
export async function removeTenantApiKeys(deps: IdentityDeps, logger: Logger, input: TenantRemoval): Promise<void> {
  await removeTenantOnce(deps.data, input, { removeAll: () => removeAllKeys(deps, logger, input.tenant) });
}

/**
 * The same removal, asked by tenancy over RPC (`identity.remove_tenant_keys`) after it committed
 * the deletion and before it answers it: the tenant is recorded as removed (no key is created for
 * it afterwards), its keys are deleted, and every gateway's Redis entry and in-memory copy is
 * dropped, so the keys are refused (401) on every replica from the moment the DELETE answered.
 */
export async function removeTenantApiKeysNow(deps: IdentityDeps, logger: Logger, tenant: RemovedTenant): Promise<{ removed: number }> {
  await deps.data.write((repos) => repos.tenants.markRemoved(tenant));
  return { removed: await removeAllKeys(deps, logger, tenant) };
}

function removeAllKeys(deps: IdentityDeps, logger: Logger, tenant: RemovedTenant): Promise<number> {
  return removeInBatches({
    size: REMOVAL_BATCH,
    logger,
    what: `API keys of ${tenant.kind}`,
    batch: (size) => deps.data.write(async (repos) => (await repos.apiKeys.removeBatchOf(tenant.scope, size)).length),
  });
}
