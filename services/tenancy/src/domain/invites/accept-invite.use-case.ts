import { RpcName, type AcceptInviteResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { hashInviteToken, isInviteToken } from "./invite-token";
import { redeemInvite } from "./redeem-invite";

/**
 * The signed-in caller accepts an invite sent to their own email address (it need not be verified
 * yet). Accepting proves the address: identity marks it verified before the answer, so `GET
 * /auth/me` right after shows it. The membership is committed first and is what the answer
 * announces: if identity cannot answer, the acceptance stands (200) and `invite.accepted`, written
 * with it, marks the address once identity is back.
 */
export async function acceptInvite(deps: TenancyDeps, ctx: RequestCtx, input: { token: string }): Promise<AcceptInviteResult> {
  if (!isInviteToken(input.token)) throw errors.notFound("invite");
  const result = await redeemInvite(deps, {
    tokenHash: hashInviteToken(input.token),
    user: { id: ctx.actor.user_id, email: ctx.actor.email },
    audit: ctx,
  });
  try {
    await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.markInvitedEmailVerified, {
      user_id: ctx.actor.user_id,
      email: ctx.actor.email,
    });
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    // no logger in the use case deps: the event replays it; nothing else to do
  }
  return result;
}
