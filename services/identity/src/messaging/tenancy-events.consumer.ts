import { RpcName } from "@burnbox/contracts";
import type { RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { serveTeamMove, startTenantEventConsumers } from "@burnbox/tenant-removal";
import type { IdentityDeps } from "../domain/deps";
import { moveTeamApiKeys } from "../domain/tenants/move-team-api-keys.use-case";
import { removeTenantApiKeys } from "../domain/tenants/remove-tenant-api-keys.use-case";

const PREFIX = "identity-apikeys";

/**
 * Tenancy's removals and moves (`identity-apikeys-org-deleted`, `-team-deleted`,
 * `-team-transferred`), and its awaited request to move a transferred team now
 * (`identity.move_team`, claimed as the event).
 */
export async function startTenancyConsumers(deps: IdentityDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  const onTransferred = (input: Parameters<typeof moveTeamApiKeys>[1]) => moveTeamApiKeys(deps, input);
  const consumers = await startTenantEventConsumers({
    nc,
    namespace,
    durablePrefix: PREFIX,
    logger,
    onRemoved: (input) => removeTenantApiKeys(deps, logger, input),
    onTransferred,
  });
  return [...consumers, serveTeamMove({ nc, namespace, durablePrefix: PREFIX, rpc: RpcName.moveTeamApiKeys, logger, onTransferred })];
}
