import { redisKeys } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";
import { accessTtlSeconds } from "./session-tokens";

/** How long the gateway must refuse a revoked session: as long as one of its access tokens could live, and a minute. */
const revocationTtlMs = (deps: IdentityDeps) => (accessTtlSeconds(deps) + 60) * 1000;

/**
 * Marks a user's sessions revoked and tells the gateway at once (a Redis key per session that
 * lives as long as an access token could), so their access tokens stop working on the next request.
 */
export async function revokeSessions(deps: IdentityDeps, userId: string, sessionIds: string[], reason: string): Promise<void> {
  if (sessionIds.length === 0) return;
  await deps.data.repos.sessions.revoke(userId, sessionIds, reason, new Date(deps.now()));
  await announceRevoked(deps, sessionIds);
}

/**
 * Tells the gateway; a Redis outage is logged, never fatal (the sessions are revoked in Postgres).
 * The list then lacks these sessions, so it stops claiming to be complete until it is seeded again.
 */
export async function announceRevoked(deps: IdentityDeps, sessionIds: string[]): Promise<void> {
  if (!deps.redis || sessionIds.length === 0) return;
  const ttl = revocationTtlMs(deps) / 1000;
  const pipeline = deps.redis.multi();
  for (const sid of sessionIds) pipeline.set(redisKeys.revokedSession(deps.config.redis.key_prefix, sid), "1", "EX", ttl);
  try {
    await pipeline.exec();
  } catch (err) {
    deps.logger.error({ err, sessions: sessionIds.length }, "could not announce revoked sessions to the gateway");
    await deps.redis.del(redisKeys.revocationsSeeded(deps.config.redis.key_prefix)).catch(() => 0);
  }
}

/**
 * Puts the revocations of the last access-token lifetime back into Redis when it lost them (a
 * restart without persistence), then marks the list complete; until then the gateway asks
 * identity about every session. Does nothing while the mark is there. Returns the sessions written.
 */
export async function seedRevocations(deps: IdentityDeps): Promise<number> {
  const redis = deps.redis;
  if (!redis) return 0;
  const prefix = deps.config.redis.key_prefix;
  if ((await redis.exists(redisKeys.revocationsSeeded(prefix))) === 1) return 0;
  const now = deps.now();
  const window = revocationTtlMs(deps);
  const revoked = await deps.data.repos.sessions.listRevokedSince(new Date(now - window));
  const pipeline = redis.multi();
  for (const s of revoked) {
    const remaining = s.revokedAt.getTime() + window - now;
    if (remaining > 0) pipeline.set(redisKeys.revokedSession(prefix, s.id), "1", "PX", remaining);
  }
  pipeline.set(redisKeys.revocationsSeeded(prefix), "1");
  await pipeline.exec();
  return revoked.length;
}
