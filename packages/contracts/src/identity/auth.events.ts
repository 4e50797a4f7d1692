import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Identity: a user registered with an invite. */
export const AuthEventType = {
  inviteRedeemed: "invite.redeemed",
} as const;

/**
 * Identity: a user registered with an invite (`POST /auth/register {invite_token}`), written in the
 * user's own transaction, so tenancy makes them a member even when it was down at registration.
 * Carries the token's SHA-256 (what tenancy stores), never the token.
 */
export const InviteRedeemedData = z.object({
  user_id: z.string().uuid(),
  email: z.string(),
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export const InviteRedeemedEvent = envelope(AuthEventType.inviteRedeemed, InviteRedeemedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const authEvents = [InviteRedeemedEvent] as const;
