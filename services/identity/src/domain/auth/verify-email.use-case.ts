import { selfActor } from "../audit-actor";
import type { IdentityDeps, Message, PublicCtx } from "../deps";
import { consumeMailToken } from "./mail-tokens";

/** Confirms the address a verification link was mailed to (400 for an unknown, used or expired link). */
export async function verifyEmail(deps: IdentityDeps, _ctx: PublicCtx, input: { token: string }): Promise<Message> {
  await deps.data.write(async (repos, events) => {
    const userId = await consumeMailToken(deps, repos, input.token, "verify_email");
    await repos.users.update(userId, { emailVerified: true });
    events.audit({ ctx: selfActor(userId, null), action: "user.email_verified", org_id: null, target: { type: "user", id: userId } });
  });
  return { message: "email address verified" };
}
