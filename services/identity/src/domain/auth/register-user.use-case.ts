import { randomUUID } from "node:crypto";
import type { RegisterBody } from "@burnbox/contracts";
import { selfActor } from "../audit-actor";
import type { IdentityDeps, PublicCtx } from "../deps";
import { openSession } from "../sessions/session-tokens";
import type { AuthOutcome } from "./admission";
import { assertPasswordPolicy } from "./credentials";
import { issueMailToken } from "./mail-tokens";

/** Creates an account and signs it in; a verification link is mailed. A taken email is the same generic 400 as any refusal. */
export async function registerUser(deps: IdentityDeps, ctx: PublicCtx, input: RegisterBody): Promise<AuthOutcome> {
  assertPasswordPolicy(deps, input.password);
  const passwordHash = await deps.hasher.hash(input.password);
  const id = randomUUID();
  const out = await deps.data.write(async (repos, events) => {
    const user = await repos.users.create({
      id,
      email: input.email,
      displayName: input.display_name,
      passwordHash,
      isSystemAdmin: deps.config.admin.emails.includes(input.email),
      lastLoginAt: new Date(deps.now()),
    });
    const tokens = await openSession(deps, repos, user, ctx);
    const verify = await issueMailToken(deps, repos, id, "verify_email");
    events.audit({ ctx: selfActor(id, ctx.ip), action: "user.registered", org_id: null, target: { type: "user", id } });
    return { user, tokens, verify };
  });
  deps.mailer.send({
    to: input.email,
    subject: "Confirm your BurnBox email address",
    text: `Confirm your address: ${deps.config.base_url}/api/v1/auth/verify-email/${out.verify}\n\nIf you did not sign up, ignore this mail.`,
  });
  return { user: out.user, tokens: out.tokens };
}
