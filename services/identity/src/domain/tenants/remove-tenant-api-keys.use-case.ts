import type { Logger } from "@burnbox/service-kit/runtime";
import { removeTenantOnce, type TenantRemoval } from "@burnbox/tenant-removal";
import type { IdentityDeps } from "../deps";
import { removeAllKeys } from "./api-key-removal";

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
