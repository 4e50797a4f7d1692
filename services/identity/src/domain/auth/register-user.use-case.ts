import { randomUUID } from "node:crypto";
import type { RegisterBody } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import { registrationAllowed } from "../platform/platform-settings";
import { selfActor } from "../audit-actor";
import type { IdentityDeps, PublicCtx } from "../deps";
import { openSession } from "../sessions/session-tokens";
import type { AuthOutcome } from "./admission";
import { assertPasswordPolicy } from "./credentials";
import { isListedAdmin } from "./listed-admin";
import { issueMailToken } from "./mail-tokens";
import { checkRegistrationInvite, joinInvitedOrg } from "../invites/registration-invite";

/**
 * Creates an account and signs it in; a verification link is mailed. A taken email is the same
 * generic 400 as any refusal. An address in `admin.emails` registers like any other (refused while
 * registration is closed, and no admin): it becomes one when its verification link is followed
 * (`verifyEmail`), so the address is proven before it gets any right.
 */
export async function registerUser(deps: IdentityDeps, ctx: PublicCtx, input: RegisterBody): Promise<AuthOutcome> {
  // an invite (checked first: a bad one is a 400 and nothing is made) also opens a closed registration
  const inviteHash = await checkRegistrationInvite(deps, input.invite_token, input.email);
  if (!inviteHash && !(await registrationAllowed(deps.data.repos))) throw errors.forbidden("registration is disabled");
  assertPasswordPolicy(deps, input.password);
  const passwordHash = await deps.hasher.hash(input.password);
  const id = randomUUID();
  const out = await deps.data.write(async (repos, events) => {
    const user = await repos.users.create({
      id,
      email: input.email,
      displayName: input.display_name,
      passwordHash,
      isSystemAdmin: false,
      lastLoginAt: new Date(deps.now()),
      // the invite was mailed to this address: following its link proves it
      emailVerified: inviteHash !== null,
    });
    const tokens = await openSession(deps, repos, user, ctx);
    const verify = await issueMailToken(deps, repos, id, "verify_email");
    events.audit({ ctx: selfActor(id, ctx.ip), action: "user.registered", org_id: null, target: { type: "user", id } });
    // written with the user, so the membership follows even if tenancy is away now (joinInvitedOrg below is the fast path)
    if (inviteHash)
      events.event("invite.redeemed", { org_id: null, team_id: null, data: { user_id: id, email: input.email, token_hash: inviteHash } });
    return { user, tokens, verify };
  });
  // read your writes: answer only once tenancy has committed the membership
  if (inviteHash) await joinInvitedOrg(deps, { tokenHash: inviteHash, userId: id, email: input.email });
  if (!inviteHash)
    deps.mailer.send({
      to: input.email,
      subject: "Confirm your BurnBox email address",
      // the console's page (spec extensions 4), which confirms through GET /auth/verify-email/:token
      text:
        `Confirm your address: ${deps.config.base_url}/verify-email/${out.verify}\n\n` +
        (isListedAdmin(deps, input.email)
          ? "This address is one of the installation's system admins: confirming it makes this account a system admin. " +
            "If you did not sign up, do not follow the link and ignore this mail."
          : "If you did not sign up, ignore this mail."),
    });
  return { user: out.user, tokens: out.tokens };
}
