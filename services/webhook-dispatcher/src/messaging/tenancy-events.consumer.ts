import { RpcName } from "@burnbox/contracts";
import type { RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { serveTeamMove, startTenantEventConsumers } from "@burnbox/tenant-removal";
import type { DispatcherDeps } from "../domain/deps";
import { moveTeamWebhooks } from "../domain/tenants/move-team-webhooks.use-case";
import { removeTenantWebhooks } from "../domain/tenants/remove-tenant-webhooks.use-case";

const PREFIX = "webhooks";

/**
 * Tenancy's removals and moves (`webhooks-org-deleted`, `-team-deleted`, `-team-transferred`), and
 * its awaited request to move a transferred team now (`webhooks.move_team`, claimed as the event).
 */
export async function startTenancyConsumers(deps: DispatcherDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  const onTransferred = (input: Parameters<typeof moveTeamWebhooks>[1]) => moveTeamWebhooks(deps, input);
  const consumers = await startTenantEventConsumers({
    nc,
    namespace,
    durablePrefix: PREFIX,
    logger,
    onRemoved: (input) => removeTenantWebhooks(deps, logger, input),
    onTransferred,
  });
  return [...consumers, serveTeamMove({ nc, namespace, durablePrefix: PREFIX, rpc: RpcName.moveTeamWebhooks, logger, onTransferred })];
}
