import { randomUUID } from "node:crypto";
import { parseDurationMs, type TokenPair, type User } from "@burnbox/contracts";
import type { IdentityRepos } from "../../data/repositories";
import type { IdentityDeps } from "../deps";
import { opaqueToken, sha256, signAccessToken } from "../tokens";

export interface IssuedTokens extends TokenPair {
  session_id: string;
}

/** Where a sign-in comes from, recorded on the session it opens. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const accessTtlSeconds = (deps: IdentityDeps) => Math.floor(parseDurationMs(deps.config.auth.access_token_ttl) / 1000);

/** An access token for the session and the refresh token that goes with it. */
export function tokenPair(deps: IdentityDeps, user: User, sessionId: string, refresh: string): IssuedTokens {
  const ttl = accessTtlSeconds(deps);
  return {
    access_token: signAccessToken(
      { userId: user.id, email: user.email, isSystemAdmin: user.is_system_admin, sessionId },
      deps.config.auth.jwt_secret,
      ttl,
      deps.now(),
    ),
    refresh_token: refresh,
    expires_in: ttl,
    session_id: sessionId,
  };
}

/** Opens a session (a refresh-token family) with the repositories of the caller's transaction. */
export async function openSession(deps: IdentityDeps, repos: IdentityRepos, user: User, client: ClientInfo): Promise<IssuedTokens> {
  const id = randomUUID();
  const refresh = opaqueToken();
  const now = deps.now();
  await repos.sessions.open(user.id, {
    id,
    ipAddress: client.ip,
    userAgent: client.userAgent.slice(0, 512),
    createdAt: new Date(now),
    expiresAt: new Date(now + parseDurationMs(deps.config.auth.refresh_token_ttl)),
    refreshHash: sha256(refresh),
  });
  return tokenPair(deps, user, id, refresh);
}
