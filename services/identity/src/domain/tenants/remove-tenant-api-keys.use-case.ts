import { ChangeSubject, type ApiKeysRemovedChange } from "@burnbox/contracts";
import { publishChanges } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { removeInBatches, removeTenantOnce, type RemovedTenant, type TenantRemoval } from "@burnbox/tenant-removal";
import { tombstoneKeys } from "../api-keys/key-cache";
import type { IdentityDeps } from "../deps";

/** How long the deletion's answer waits for the NATS server to take the gateways' drop (then it fails, 503). */
const BROADCAST_WAIT_MS = 5000;

/** Keys removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 200;

/**
 * Removes every API key of an org or team tenancy deleted (`org.deleted`, `team.deleted`), once per
 * event (`removeTenantOnce`): keys go batch by batch; each batch writes "no such key" into the
 * gateway's cache before it commits (a Redis failure rolls the batch back and the event is
 * retried), so a deleted key is refused at once (401). Tenancy usually did it already, before it
 * answered the deletion (`removeTenantApiKeysNow`); the event then finds nothing left. The two
 * often run at once: then the RPC's batch waits on the rows the event's batch deletes, and finds
 * them gone, with their Redis entries already refusing (written before that commit).
 */
export async function removeTenantApiKeys(deps: IdentityDeps, logger: Logger, input: TenantRemoval): Promise<void> {
  await removeTenantOnce(deps.data, input, { removeAll: () => removeAllKeys(deps, logger, input.tenant) });
}

/**
 * The same removal, asked by tenancy over RPC (`identity.remove_tenant_keys`) after it committed
 * the deletion and before it answers it: the tenant is recorded as removed (no key is created for
 * it afterwards), its keys are deleted, and every gateway's Redis entry and in-memory copy is
 * dropped, so the keys are refused (401) on every replica from the moment the DELETE answered.
 * The drop of the tenant's in-memory copies is broadcast at the end whatever this call deleted
 * itself: the event's removal may have deleted the keys a moment before and not broadcast yet.
 * It throws when the NATS server did not take the broadcast in time (tenancy answers 503).
 */
export async function removeTenantApiKeysNow(deps: IdentityDeps, logger: Logger, tenant: RemovedTenant): Promise<{ removed: number }> {
  await deps.data.write((repos) => repos.tenants.markRemoved(tenant));
  const removed = await removeAllKeys(deps, logger, tenant);
  const data: ApiKeysRemovedChange = { org_id: tenant.scope.orgId, team_id: tenant.kind === "team" ? tenant.scope.teamId : null };
  const taken = await publishChanges(
    deps.nc,
    deps.config.nats.namespace,
    [{ type: ChangeSubject.apiKeysRemoved, org_id: data.org_id, team_id: data.team_id, data }],
    BROADCAST_WAIT_MS,
  );
  if (!taken) throw new Error("the gateways' drop of the removed keys was not confirmed by the NATS server");
  return { removed };
}

function removeAllKeys(deps: IdentityDeps, logger: Logger, tenant: RemovedTenant): Promise<number> {
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
