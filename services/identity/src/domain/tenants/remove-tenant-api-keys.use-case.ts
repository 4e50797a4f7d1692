import type { Logger, OrgScope, TeamScope } from "@burnbox/service-kit";
import { publishKeyState } from "../api-keys/key-cache";
import type { IdentityDeps } from "../deps";

/** Keys removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 200;

export type RemovedTenant = { kind: "org"; scope: OrgScope } | { kind: "team"; scope: TeamScope };

/**
 * Removes every API key of an org or team tenancy deleted (`org.deleted`, `team.deleted`): the
 * removal is recorded first (a create in flight commits before it, a later one is refused), then
 * keys go batch by batch; each batch writes "no such key" into the gateway's cache before it
 * commits (a Redis failure rolls the batch back and the event is retried), so a deleted key is
 * refused at once (401). Once done, the event is recorded as handled.
 */
export async function removeTenantApiKeys(
  deps: IdentityDeps,
  logger: Logger,
  input: { consumer: string; eventId: string; tenant: RemovedTenant },
): Promise<void> {
  const { consumer, eventId, tenant } = input;
  if (await deps.data.repos.processedEvents.seen(consumer, eventId)) return;
  await deps.data.write((repos) => repos.tenants.markRemoved(tenant));
  let total = 0;
  for (;;) {
    const n = await deps.data.write(async (repos) => {
      const hashes = await repos.apiKeys.removeBatchOf(tenant.scope, REMOVAL_BATCH);
      await publishKeyState(
        deps,
        hashes.map((hash) => ({ hash, state: null })),
      );
      return hashes.length;
    });
    total += n;
    if (n < REMOVAL_BATCH) break;
  }
  if (total > 0) logger.info({ removed: total, tenant: tenant.kind }, "API keys of a removed tenant deleted");
  await deps.data.write(async (repos) => {
    await repos.processedEvents.claim(consumer, eventId);
  });
}
