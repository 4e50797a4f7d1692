import type { AcceptInviteResult } from "@burnbox/contracts";
import { errors, type RequestCtx } from "@burnbox/service-kit";
import type { TenancyDeps } from "../deps";
import { hashInviteToken, isInviteToken } from "./invite-token";
import { redeemInvite } from "./redeem-invite";

/** The signed-in caller accepts an invite sent to their own email address (it need not be verified yet). */
export async function acceptInvite(deps: TenancyDeps, ctx: RequestCtx, input: { token: string }): Promise<AcceptInviteResult> {
  if (!isInviteToken(input.token)) throw errors.notFound("invite");
  return redeemInvite(deps, {
    tokenHash: hashInviteToken(input.token),
    user: { id: ctx.actor.user_id, email: ctx.actor.email },
    audit: ctx,
  });
}
