import { AppError, type Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { redeemInvite } from "./redeem-invite";

/**
 * A user registered with an invite: they join its org and teams. Identity asks for it over RPC
 * (`tenancy.redeem_invite`) before it answers the registration, so the new member's next request
 * sees the membership; the same redemption also arrives as identity's durable `invite.redeemed`
 * event, which replays it if the RPC was lost to an outage. Idempotent: a second redemption by the
 * same user finds the invite accepted by them and changes nothing. An invite that can no longer be
 * redeemed (revoked or expired since the check) is `refused`, logged and never retried: the
 * registration itself stands.
 */
export async function redeemRegistrationInvite(
  deps: TenancyDeps,
  logger: Logger,
  input: { tokenHash: string; userId: string; email: string },
): Promise<{ outcome: "member" | "refused" }> {
  try {
    await redeemInvite(deps, {
      tokenHash: input.tokenHash,
      user: { id: input.userId, email: input.email },
      audit: { actor: { user_id: input.userId, api_key: null } },
      replay: true,
    });
    return { outcome: "member" };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    logger.warn({ user_id: input.userId, reason: err.message }, "invite of a registration could not be redeemed");
    return { outcome: "refused" };
  }
}
