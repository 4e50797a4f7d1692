import { selfActor } from "../audit-actor";
import type { IdentityDeps, Message, PublicCtx } from "../deps";
import { announceRevoked } from "../sessions/revocation";
import { sha256 } from "../tokens";

/** Revokes the session a refresh token belongs to; no token or an unknown one is fine (logout is idempotent). */
export async function logOut(deps: IdentityDeps, _ctx: PublicCtx, input: { refresh_token: string | undefined }): Promise<Message> {
  const found = input.refresh_token ? await deps.data.repos.sessions.locateRefreshToken(sha256(input.refresh_token)) : null;
  if (found && !found.sessionRevoked) {
    await deps.data.write(async (repos, events) => {
      await repos.sessions.revoke(found.userId, [found.sessionId], "logout", new Date(deps.now()));
      events.audit({
        ctx: selfActor(found.userId, null),
        action: "user.logout",
        org_id: null,
        target: { type: "user", id: found.userId },
        metadata: { session_id: found.sessionId },
      });
    });
    await announceRevoked(deps, [found.sessionId]);
  }
  return { message: "signed out" };
}
