import { startTenantEventConsumers, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import { moveTeamWebhooks } from "../domain/tenants/move-team-webhooks.use-case";
import { removeTenantWebhooks } from "../domain/tenants/remove-tenant-webhooks.use-case";

/** Tenancy's removals and moves (`webhooks-org-deleted`, `-team-deleted`, `-team-transferred`). */
export function startTenancyConsumers(deps: DispatcherDeps, logger: Logger): Promise<RunningConsumer[]> {
  return startTenantEventConsumers({
    nc: deps.nc,
    namespace: deps.config.nats.namespace,
    durablePrefix: "webhooks",
    logger,
    onRemoved: (input) => removeTenantWebhooks(deps, logger, input),
    onTransferred: (input) => moveTeamWebhooks(deps, input),
  });
}
