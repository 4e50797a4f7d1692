import { RpcName } from "@burnbox/contracts";
import { serveRpc, type Logger, type NatsConnection } from "@burnbox/service-kit";
import { resolvedView } from "../domain/apikey-cache";
import type { IdentityDeps } from "../domain/deps";

/** The gateway resolves `bb_` keys by hash here (then caches the answer in Redis). */
export function serveIdentityRpc(nc: NatsConnection, deps: IdentityDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(
      nc,
      deps.config.nats.namespace,
      RpcName.resolveApiKey,
      async (req) => {
        const key = await deps.db.apiKey.findUnique({
          where: { keyHash: req.key_hash },
          include: { creator: { select: { id: true, email: true } } },
        });
        return { key: key ? resolvedView(key) : null };
      },
      logger,
    ),
  ];
}
