import type { Logger } from "@burnbox/service-kit/runtime";
import { removeInBatches, removeTenantOnce, type TenantRemoval } from "@burnbox/tenant-removal";
import type { DispatcherDeps } from "../deps";

/** Rows removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 500;

/**
 * Removes every webhook of an org or team tenancy deleted (`org.deleted`, `team.deleted`) with its
 * deliveries and log, once per event (`removeTenantOnce`): the webhooks are stopped in the
 * transaction that records the removal; then the rows go batch by batch (deliveries' attempts,
 * deliveries, webhooks: a short batch is not the last, only an empty one).
 */
export async function removeTenantWebhooks(deps: DispatcherDeps, logger: Logger, input: TenantRemoval): Promise<void> {
  const { tenant } = input;
  await removeTenantOnce(deps.data, input, {
    atMark: (repos) => repos.webhooks.deactivateAllOf(tenant.scope),
    removeAll: () =>
      removeInBatches({
        size: REMOVAL_BATCH,
        untilEmpty: true,
        logger,
        what: `webhook rows of ${tenant.kind}`,
        batch: (size) => deps.data.write((repos) => repos.webhooks.removeBatchOf(tenant.scope, size)),
      }),
  });
}
