import { RpcName, type ResolvedApiKey } from "@burnbox/contracts";
import { serveRpc, type Logger, type NatsConnection } from "@burnbox/service-kit";
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
        if (!key) return { key: null };
        const resolved: ResolvedApiKey = {
          id: key.id,
          team_id: key.teamId,
          scopes: key.scopes,
          is_active: key.isActive,
          expires_at: key.expiresAt?.toISOString() ?? null,
          revoked_at: key.revokedAt?.toISOString() ?? null,
          allowed_ips: key.allowedIps,
          creator: { user_id: key.creator.id, email: key.creator.email },
        };
        return { key: resolved };
      },
      logger,
    ),
  ];
}
