import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { admit, sessionLimitError, signedIn, type AuthOutcome } from "./admission";
import { createPendingLogin, takePendingLogin } from "./pending-login";

/**
 * Completes a pending login by revoking one of the user's sessions; 409 again if still at the limit
 * (a race). The pending token is taken before anything else (one resolve per token: a second one
 * at the same time is 401) and put back only when the named session is not one of the account's.
 */
export async function resolveLogin(
  deps: IdentityDeps,
  ctx: PublicCtx,
  input: { pending_token: string; revoke_session_id: string },
): Promise<AuthOutcome> {
  const pending = await takePendingLogin(deps, input.pending_token);
  if (!pending) throw errors.unauthenticated("invalid or expired pending login");
  const { userId } = pending;
  const revoked = input.revoke_session_id;
  let notOwn = false;
  const a = await deps.data
    .write(async (repos, events) => {
      await repos.sessions.lockUser(userId);
      const now = new Date(deps.now());
      if (!(await repos.sessions.isActive(userId, revoked, now))) {
        notOwn = true;
        throw errors.validation("revoke_session_id must be one of the account's active sessions");
      }
      await repos.sessions.revoke(userId, [revoked], "session_limit_resolve", now);
      return admit(deps, repos, events, userId, ctx, { fallback: false, action: "user.login_resolved" });
    })
    .catch(async (err: unknown) => {
      // nothing changed: the user may pick another session with the same token
      if (notOwn) await pending.restore();
      throw err;
    });
  await revokeSessions(deps, userId, [revoked], "session_limit_resolve");
  if (a.kind === "in") return signedIn(deps, userId, a);
  const fresh = await createPendingLogin(deps, userId);
  if (!fresh) throw errors.unavailable("pending-login store unavailable; sign in again");
  throw sessionLimitError(fresh, a.sessions, a.limit);
}
