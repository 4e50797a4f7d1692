import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit";
import { resolveApiKey } from "../domain/api-keys/resolve-api-key.use-case";
import type { IdentityDeps } from "../domain/deps";

/** The gateway resolves `bb_` keys by hash here (then caches the answer in Redis). */
export function serveIdentityRpc(deps: IdentityDeps): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(
      deps.nc,
      deps.config.nats.namespace,
      RpcName.resolveApiKey,
      (req) => resolveApiKey(deps, { keyHash: req.key_hash }),
      deps.logger,
    ),
  ];
}
