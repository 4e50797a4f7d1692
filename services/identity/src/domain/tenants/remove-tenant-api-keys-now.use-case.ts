import { ChangeSubject, type ApiKeysRemovedChange } from "@burnbox/contracts";
import { publishChanges } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { RemovedTenant } from "@burnbox/tenant-removal";
import type { IdentityDeps } from "../deps";
import { removeAllKeys } from "./api-key-removal";

/** How long the deletion's answer waits for the NATS server to take the gateways' drop (then it fails, 503). */
const BROADCAST_WAIT_MS = 5000;

/**
 * The removal of `removeTenantApiKeys`, asked by tenancy over RPC (`identity.remove_tenant_keys`)
 * after it committed the deletion and before it answers it: the tenant is recorded as removed (no
 * key is created for it afterwards), its keys are deleted, and every gateway's Redis entry and
 * in-memory copy is dropped, so the keys are refused (401) on every replica from the moment the
 * DELETE answered. The drop of the tenant's in-memory copies is broadcast at the end whatever this
 * call deleted itself: the event's removal may have deleted the keys a moment before and not
 * broadcast yet. It throws when the NATS server did not take the broadcast in time (tenancy answers 503).
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
