import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { tokenPair, type IssuedTokens } from "../sessions/session-tokens";
import { opaqueToken, sha256 } from "../tokens";

/**
 * Exchanges a refresh token for a new pair. Tokens rotate on every use; a token that was
 * already used comes back only if it was stolen, so its whole session is revoked.
 */
export async function refreshSession(deps: IdentityDeps, _ctx: PublicCtx, input: { refresh_token: string }): Promise<IssuedTokens> {
  const invalid = () => errors.unauthenticated("invalid or expired refresh token");
  const hash = sha256(input.refresh_token);
  const now = new Date(deps.now());
  const outcome = await deps.data.write(async (repos) => {
    const found = await repos.sessions.locateRefreshToken(hash);
    if (!found || found.sessionRevoked || found.sessionExpiresAt <= now) return { kind: "invalid" as const };
    if (!(await repos.sessions.claimRefreshToken(found.userId, hash, now))) return { kind: "reused" as const, ...found };
    const user = await repos.users.get(found.userId);
    if (!user) return { kind: "invalid" as const };
    const next = opaqueToken();
    await repos.sessions.addRefreshToken(found.userId, found.sessionId, sha256(next), now);
    return { kind: "ok" as const, tokens: tokenPair(deps, user, found.sessionId, next) };
  });
  switch (outcome.kind) {
    case "ok":
      return outcome.tokens;
    case "reused":
      deps.logger.warn({ session_id: outcome.sessionId }, "refresh token reused; revoking its session");
      await revokeSessions(deps, outcome.userId, [outcome.sessionId], "refresh_token_reuse");
      throw invalid();
    case "invalid":
      throw invalid();
  }
}
