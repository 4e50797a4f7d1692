import { randomUUID } from "node:crypto";
import { parseDurationMs, redisKeys, type TokenPair } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { Tx } from "../data/prisma";
import type { ClientInfo, IdentityDeps } from "./deps";
import { opaqueToken, sha256, signAccessToken } from "./tokens";

export interface IssuedTokens extends TokenPair {
  session_id: string;
}

const accessTtlSeconds = (deps: IdentityDeps) => Math.floor(parseDurationMs(deps.config.auth.access_token_ttl) / 1000);

function tokenPair(
  deps: IdentityDeps,
  user: { id: string; email: string; isSystemAdmin: boolean },
  sessionId: string,
  refresh: string,
): IssuedTokens {
  const ttl = accessTtlSeconds(deps);
  return {
    access_token: signAccessToken(
      { userId: user.id, email: user.email, isSystemAdmin: user.isSystemAdmin, sessionId },
      deps.config.auth.jwt_secret,
      ttl,
      deps.now(),
    ),
    refresh_token: refresh,
    expires_in: ttl,
    session_id: sessionId,
  };
}

/** Opens a session (a refresh-token family) inside the caller's transaction. */
export async function openSession(
  deps: IdentityDeps,
  tx: Tx,
  user: { id: string; email: string; isSystemAdmin: boolean },
  client: ClientInfo,
): Promise<IssuedTokens> {
  const id = randomUUID();
  const refresh = opaqueToken();
  const now = new Date(deps.now());
  await tx.session.create({
    data: {
      id,
      userId: user.id,
      ipAddress: client.ip,
      userAgent: client.userAgent.slice(0, 512),
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(deps.now() + parseDurationMs(deps.config.auth.refresh_token_ttl)),
    },
  });
  await tx.refreshToken.create({ data: { tokenHash: sha256(refresh), sessionId: id, createdAt: now } });
  return tokenPair(deps, user, id, refresh);
}

/**
 * Marks sessions revoked and tells the gateway at once (a Redis key per session that lives as
 * long as an access token could), so their access tokens stop working on the next request.
 */
export async function revokeSessions(deps: IdentityDeps, sessionIds: string[], reason: string): Promise<void> {
  if (sessionIds.length === 0) return;
  await deps.db.session.updateMany({
    where: { id: { in: sessionIds }, revokedAt: null },
    data: { revokedAt: new Date(deps.now()), revokedReason: reason },
  });
  await announceRevoked(deps, sessionIds);
}

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

/**
 * Exchanges a refresh token for a new pair. Tokens rotate on every use; a token that was
 * already used comes back only if it was stolen, so its whole session is revoked.
 */
export async function rotateRefreshToken(deps: IdentityDeps, refreshToken: string): Promise<IssuedTokens> {
  const invalid = () => errors.unauthenticated("invalid or expired refresh token");
  const hash = sha256(refreshToken);
  const now = new Date(deps.now());
  const outcome = await deps.db.$transaction(async (tx) => {
    const row = await tx.refreshToken.findUnique({ where: { tokenHash: hash }, include: { session: { include: { user: true } } } });
    if (!row) return { kind: "invalid" as const };
    const session = row.session;
    if (session.revokedAt || session.expiresAt <= now) return { kind: "invalid" as const };
    // Claim the token atomically: two concurrent refreshes with one token cannot both win.
    const claimed = await tx.refreshToken.updateMany({ where: { tokenHash: hash, usedAt: null }, data: { usedAt: now } });
    if (claimed.count === 0) return { kind: "reused" as const, sessionId: session.id };
    const next = opaqueToken();
    await tx.refreshToken.create({ data: { tokenHash: sha256(next), sessionId: session.id, createdAt: now } });
    await tx.session.update({ where: { id: session.id }, data: { lastUsedAt: now } });
    return { kind: "ok" as const, tokens: tokenPair(deps, session.user, session.id, next) };
  });
  if (outcome.kind === "reused") {
    deps.logger.warn({ session_id: outcome.sessionId }, "refresh token reused; revoking its session");
    await revokeSessions(deps, [outcome.sessionId], "refresh_token_reuse");
    throw invalid();
  }
  if (outcome.kind === "invalid") throw invalid();
  return outcome.tokens;
}
