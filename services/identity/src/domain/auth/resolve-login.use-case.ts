import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { admit, sessionLimitError, signedIn, type AuthOutcome } from "./admission";
import { createPendingLogin, dropPendingLogin, readPendingLogin } from "./pending-login";

/** Completes a pending login by revoking one of the user's sessions; 409 again if still at the limit (a race). */
export async function resolveLogin(
  deps: IdentityDeps,
  ctx: PublicCtx,
  input: { pending_token: string; revoke_session_id: string },
): Promise<AuthOutcome> {
  const userId = await readPendingLogin(deps, input.pending_token);
  if (!userId) throw errors.unauthenticated("invalid or expired pending login");
  const revoked = input.revoke_session_id;
  const a = await deps.data.write(async (repos, events) => {
    await repos.sessions.lockUser(userId);
    const now = new Date(deps.now());
    if (!(await repos.sessions.isActive(userId, revoked, now))) {
      throw errors.validation("revoke_session_id must be one of the account's active sessions");
    }
    await repos.sessions.revoke(userId, [revoked], "session_limit_resolve", now);
    return admit(deps, repos, events, userId, ctx, { fallback: false, action: "user.login_resolved" });
  });
  await revokeSessions(deps, userId, [revoked], "session_limit_resolve");
  await dropPendingLogin(deps, input.pending_token);
  if (a.kind === "in") return signedIn(deps, userId, a);
  const fresh = await createPendingLogin(deps, userId);
  if (!fresh) throw errors.unavailable("pending-login store unavailable; sign in again");
  throw sessionLimitError(fresh, a.sessions, a.limit);
}
