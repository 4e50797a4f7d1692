import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

/**
 * Read your writes for a deleted org or team: identity removes its API keys and every gateway
 * drops them (Redis and memory) before the deletion is answered, so a key of a deleted team is
 * refused (401) on every replica from the moment the DELETE answered. Called after the deletion
 * committed: its `org.deleted` / `team.deleted` event is durable and removes the keys anyway, so if
 * identity cannot answer, the deletion stands and answers 503 (retrying it is a 404).
 */
export async function removeTenantKeys(deps: TenancyDeps, tenant: { orgId: string; teamId: string | null }): Promise<void> {
  try {
    await rpcRequest(
      deps.nc,
      deps.config.nats.namespace,
      RpcName.removeTenantKeys,
      { org_id: tenant.orgId, team_id: tenant.teamId },
      10_000,
    );
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    throw errors.unavailable("deleted, but its API keys are still being revoked: they stop working within moments");
  }
}
