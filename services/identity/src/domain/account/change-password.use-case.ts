import type { RequestCtx } from "@burnbox/service-kit/http";
import { assertPasswordPolicy, verifyOwnPassword } from "../auth/credentials";
import type { IdentityDeps, Message } from "../deps";
import { revokeSessions } from "../sessions/revocation";

/** Changes the password; every other session of the user is revoked. */
export async function changePassword(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { current_password: string; new_password: string },
): Promise<Message> {
  const userId = ctx.actor.user_id;
  await verifyOwnPassword(deps, userId, input.current_password);
  assertPasswordPolicy(deps, input.new_password, "new_password");
  const hash = await deps.hasher.hash(input.new_password);
  const others = await deps.data.write(async (repos, events) => {
    await repos.users.update(userId, { passwordHash: hash });
    const others = await repos.sessions.unrevokedIds(userId, { except: ctx.actor.session_id });
    events.audit({ ctx, action: "user.password_changed", org_id: null, target: { type: "user", id: userId } });
    return others;
  });
  await revokeSessions(deps, userId, others, "password_changed");
  return { message: "password changed; other sessions were signed out" };
}
