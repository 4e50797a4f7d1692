import type { Logger, OrgScope, TeamScope } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../deps";

/** Rows removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 500;

export type RemovedTenant = { kind: "org"; scope: OrgScope } | { kind: "team"; scope: TeamScope };

/**
 * Removes every webhook of an org or team tenancy deleted (`org.deleted`, `team.deleted`) with its
 * deliveries and log. First, in one transaction, the removal is recorded (a create in flight
 * commits before it, a later one is refused) and the webhooks are stopped; then the rows go batch
 * by batch. A redelivered event removes what is left; once done, the event is recorded as handled.
 */
export async function removeTenantWebhooks(
  deps: DispatcherDeps,
  logger: Logger,
  input: { consumer: string; eventId: string; tenant: RemovedTenant },
): Promise<void> {
  const { consumer, eventId, tenant } = input;
  if (await deps.data.repos.processedEvents.seen(consumer, eventId)) return;
  await deps.data.write(async (repos) => {
    await repos.tenants.markRemoved(tenant);
    await repos.webhooks.deactivateAllOf(tenant.scope);
  });
  let total = 0;
  for (;;) {
    const n = await deps.data.write((repos) => repos.webhooks.removeBatchOf(tenant.scope, REMOVAL_BATCH));
    if (n === 0) break;
    total += n;
  }
  if (total > 0) logger.info({ removed_rows: total, tenant: tenant.kind }, "webhooks of a removed tenant deleted");
  await deps.data.write(async (repos) => {
    await repos.processedEvents.claim(consumer, eventId);
  });
}
