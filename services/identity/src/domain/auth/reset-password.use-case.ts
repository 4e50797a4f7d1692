import { selfActor } from "../audit-actor";
import type { IdentityDeps, Message, PublicCtx } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { assertPasswordPolicy } from "./credentials";
import { consumeMailToken } from "./mail-tokens";

/** Sets a new password from a reset link; every session is revoked and the lockout cleared. */
export async function resetPassword(deps: IdentityDeps, ctx: PublicCtx, input: { token: string; new_password: string }): Promise<Message> {
  assertPasswordPolicy(deps, input.new_password, "new_password");
  const hash = await deps.hasher.hash(input.new_password);
  const { userId, sessions } = await deps.data.write(async (repos, events) => {
    const userId = await consumeMailToken(deps, repos, input.token, "reset_password");
    await repos.users.resetPassword(userId, hash);
    const sessions = await repos.sessions.unrevokedIds(userId);
    events.audit({ ctx: selfActor(userId, ctx.ip), action: "user.password_reset", org_id: null, target: { type: "user", id: userId } });
    return { userId, sessions };
  });
  await revokeSessions(deps, userId, sessions, "password_reset");
  return { message: "password reset; every session was signed out" };
}
