import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { resolveApiKey } from "../domain/api-keys/resolve-api-key.use-case";
import type { IdentityDeps } from "../domain/deps";
import { getSessionStatus } from "../domain/sessions/get-session-status.use-case";
import { removeTenantApiKeysNow } from "../domain/tenants/remove-tenant-api-keys-now.use-case";

/**
 * The gateway's questions: the key a `bb_` secret stands for (by hash; it caches the answer in
 * Redis), and whether a session is revoked when Redis cannot tell. And tenancy's: remove an org's
 * or team's keys now, before it answers the deletion.
 */
export function serveIdentityRpc(deps: IdentityDeps): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(deps.nc, ns, RpcName.resolveApiKey, (req) => resolveApiKey(deps, { keyHash: req.key_hash }), deps.logger),
    serveRpc(deps.nc, ns, RpcName.sessionStatus, (req) => getSessionStatus(deps, { sessionId: req.session_id }), deps.logger),
    serveRpc(
      deps.nc,
      ns,
      RpcName.removeTenantKeys,
      (req) =>
        removeTenantApiKeysNow(
          deps,
          deps.logger,
          req.team_id ? { kind: "team", scope: { orgId: req.org_id, teamId: req.team_id } } : { kind: "org", scope: { orgId: req.org_id } },
        ),
      deps.logger,
    ),
  ];
}
