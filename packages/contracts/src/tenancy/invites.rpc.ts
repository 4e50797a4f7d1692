import { z } from "../zod";

/**
 * Identity checks an invite before registering its holder (`POST /auth/register {invite_token}`):
 * by the token's SHA-256, for the address being registered.
 */
export const CheckInviteRequest = z.object({ token_hash: z.string().regex(/^[0-9a-f]{64}$/), email: z.string().max(320) });
export const CheckInviteReply = z.object({
  /** null when the invite may be redeemed by this address; else not_found (unknown, expired, revoked) | already_accepted | email_mismatch */
  problem: z.enum(["not_found", "already_accepted", "email_mismatch"]).nullable(),
});
export type CheckInviteReply = z.infer<typeof CheckInviteReply>;
/**
 * Identity has tenancy redeem a registration's invite before answering `POST /auth/register`
 * (read your writes: the new member's next request sees the membership). The same redemption
 * also travels as the durable `invite.redeemed` event, so an RPC lost to an outage is replayed.
 */
export const RedeemInviteRequest = z.object({
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
  user_id: z.string().uuid(),
  email: z.string().max(320),
});
export type RedeemInviteRequest = z.infer<typeof RedeemInviteRequest>;
export const RedeemInviteReply = z.object({
  /** member: the membership is committed; refused: the invite can no longer be redeemed (the account stands) */
  outcome: z.enum(["member", "refused"]),
});

/** Tenancy: invites checked and redeemed for identity's registration. */
export const invitesRpc = {
  checkInvite: { name: "tenancy.check_invite", request: CheckInviteRequest, reply: CheckInviteReply },
  redeemInvite: { name: "tenancy.redeem_invite", request: RedeemInviteRequest, reply: RedeemInviteReply },
} as const;
