import type { IdentityDeps } from "../deps";
import { opaqueToken, sha256 } from "../tokens";

/** A login held at the session limit lives 5 minutes (spec 3.4), in Redis, under the token's hash. */
export const PENDING_LOGIN_TTL_MS = 5 * 60_000;

const key = (deps: IdentityDeps, token: string) => `${deps.config.redis.key_prefix}login:pending:${sha256(token)}`;

interface Pending {
  user_id: string;
  expires_at: number;
}

/** A fresh pending-login token, or null when Redis cannot take it (the caller then falls back). */
export async function createPendingLogin(deps: IdentityDeps, userId: string): Promise<string | null> {
  if (!deps.redis) return null;
  const token = opaqueToken();
  const value: Pending = { user_id: userId, expires_at: deps.now() + PENDING_LOGIN_TTL_MS };
  try {
    await deps.redis.set(key(deps, token), JSON.stringify(value), "PX", PENDING_LOGIN_TTL_MS);
    return token;
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message } },
      "pending-login store unavailable; falling back to revoking the oldest session",
    );
    return null;
  }
}

/** The user a pending token stands for, or null when unknown or past its 5 minutes. Does not consume it. */
export async function readPendingLogin(deps: IdentityDeps, token: string): Promise<string | null> {
  if (!deps.redis) return null;
  return liveUser(deps, await deps.redis.get(key(deps, token)));
}

/** Ends a pending token unused (an SSO conflict whose token could not be bound to its browser). */
export async function dropPendingLogin(deps: IdentityDeps, token: string): Promise<void> {
  await deps.redis?.del(key(deps, token)).catch(() => 0);
}

/** A pending login taken by one resolve: the user, and a way to put it back when the resolve is refused before it changed anything. */
export interface TakenPendingLogin {
  userId: string;
  restore(): Promise<void>;
}

/**
 * Takes a pending token for one resolve, atomically (GETDEL): of two resolves with the same token
 * at once, one gets it and the other finds it gone (401), so one pending login ends one session.
 * Null when unknown, used or past its 5 minutes. Without Redis there is no pending login at all
 * (the password path then revoked the oldest session itself), so nothing falls back here.
 */
export async function takePendingLogin(deps: IdentityDeps, token: string): Promise<TakenPendingLogin | null> {
  if (!deps.redis) return null;
  const redis = deps.redis;
  const raw = await redis.getdel(key(deps, token));
  const userId = liveUser(deps, raw);
  if (!userId || !raw) return null;
  return {
    userId,
    restore: async () => {
      const left = (JSON.parse(raw) as Pending).expires_at - deps.now();
      if (left > 0) await redis.set(key(deps, token), raw, "PX", left, "NX").catch(() => null);
    },
  };
}

function liveUser(deps: IdentityDeps, raw: string | null): string | null {
  if (!raw) return null;
  const p = JSON.parse(raw) as Pending;
  return p.expires_at > deps.now() ? p.user_id : null;
}
