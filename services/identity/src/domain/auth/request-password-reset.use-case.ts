import { selfActor } from "../audit-actor";
import type { IdentityDeps, Message, PublicCtx } from "../deps";
import { issueMailToken } from "./mail-tokens";

/** Always answers the same, whether or not the account exists; mails a one-hour reset link when it does. */
export async function requestPasswordReset(deps: IdentityDeps, ctx: PublicCtx, input: { email: string }): Promise<Message> {
  const user = await deps.data.repos.users.locateByEmail(input.email);
  if (user) {
    const token = await deps.data.write(async (repos, events) => {
      const t = await issueMailToken(deps, repos, user.userId, "reset_password");
      events.audit({
        ctx: selfActor(user.userId, ctx.ip),
        action: "user.password_reset_requested",
        org_id: null,
        target: { type: "user", id: user.userId },
      });
      return t;
    });
    deps.mailer.send({
      to: user.email,
      subject: "Reset your BurnBox password",
      text: `Someone asked to reset the password of this account. To choose a new one, open:\n\n${deps.config.base_url}/reset-password?token=${token}\n\nThe link works once, for one hour. If it was not you, ignore this mail.`,
    });
  }
  return { message: "if an account exists for this address, a reset link has been sent" };
}
