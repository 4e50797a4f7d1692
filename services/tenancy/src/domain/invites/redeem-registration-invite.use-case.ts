import type { EventOf } from "@burnbox/contracts";
import { AppError, type Logger } from "@burnbox/service-kit";
import type { TenancyDeps } from "../deps";
import { redeemInvite } from "./redeem-invite";

/**
 * A user registered with an invite (identity's `invite.redeemed`): they join its org and teams.
 * Idempotent: a redelivered event finds the invite accepted by the same user and changes nothing.
 * An invite that can no longer be redeemed (revoked or expired since the check) is logged and
 * dropped, never retried: the registration itself stands.
 */
export async function redeemRegistrationInvite(deps: TenancyDeps, event: EventOf<"invite.redeemed">, logger: Logger): Promise<void> {
  try {
    await redeemInvite(deps, {
      tokenHash: event.data.token_hash,
      user: { id: event.data.user_id, email: event.data.email },
      audit: { actor: { user_id: event.data.user_id, api_key: null } },
      replay: true,
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    logger.warn({ user_id: event.data.user_id, reason: err.message }, "invite of a registration could not be redeemed");
  }
}
