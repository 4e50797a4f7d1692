import { redisKeys } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";
import { accessTtlSeconds } from "./session-tokens";

/**
 * Marks a user's sessions revoked and tells the gateway at once (a Redis key per session that
 * lives as long as an access token could), so their access tokens stop working on the next request.
 */
export async function revokeSessions(deps: IdentityDeps, userId: string, sessionIds: string[], reason: string): Promise<void> {
  if (sessionIds.length === 0) return;
  await deps.data.repos.sessions.revoke(userId, sessionIds, reason, new Date(deps.now()));
  await announceRevoked(deps, sessionIds);
}

/** Tells the gateway; a Redis outage is logged, never fatal (the sessions are revoked in Postgres). */
export async function announceRevoked(deps: IdentityDeps, sessionIds: string[]): Promise<void> {
  if (!deps.redis || sessionIds.length === 0) return;
  const ttl = accessTtlSeconds(deps) + 60;
  const pipeline = deps.redis.multi();
  for (const sid of sessionIds) pipeline.set(redisKeys.revokedSession(deps.config.redis.key_prefix, sid), "1", "EX", ttl);
  try {
    await pipeline.exec();
  } catch (err) {
    deps.logger.error({ err, sessions: sessionIds.length }, "could not announce revoked sessions to the gateway");
  }
}
