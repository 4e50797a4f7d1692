import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { sha256 } from "../tokens";

/** Account self-service is for the user's own session, never an API key (403). */
export function requireOwnSession(ctx: RequestCtx): string {
  if (ctx.actor.api_key) throw errors.forbidden("API keys cannot manage SSO identities");
  return ctx.actor.user_id;
}

/** The user whose active session the browser holds (its refresh cookie, on the auth routes), or null. */
export async function browserSessionUser(deps: IdentityDeps, refreshToken: string | undefined): Promise<string | null> {
  if (!refreshToken) return null;
  const found = await deps.data.repos.sessions.locateRefreshToken(sha256(refreshToken));
  if (!found || found.sessionRevoked || found.sessionExpiresAt.getTime() <= deps.now()) return null;
  return found.userId;
}
