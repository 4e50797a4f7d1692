import { startTenantEventConsumers, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { IdentityDeps } from "../domain/deps";
import { moveTeamApiKeys } from "../domain/tenants/move-team-api-keys.use-case";
import { removeTenantApiKeys } from "../domain/tenants/remove-tenant-api-keys.use-case";

/** Tenancy's removals and moves (`identity-apikeys-org-deleted`, `-team-deleted`, `-team-transferred`). */
export function startTenancyConsumers(deps: IdentityDeps, logger: Logger): Promise<RunningConsumer[]> {
  return startTenantEventConsumers({
    nc: deps.nc,
    namespace: deps.config.nats.namespace,
    durablePrefix: "identity-apikeys",
    logger,
    onRemoved: (input) => removeTenantApiKeys(deps, logger, input),
    onTransferred: (input) => moveTeamApiKeys(deps, input),
  });
}
