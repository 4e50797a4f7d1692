import { z } from "../zod";

/** Tenancy asks identity who its members are (by ids or by emails): the fields a Member shows. */
export const LookupUsersRequest = z.object({
  user_ids: z.array(z.string().uuid()).max(1000).default([]),
  emails: z.array(z.string().max(320)).max(1000).default([]),
});
export const LookedUpUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  display_name: z.string(),
  last_login_at: z.string().nullable(),
});
export type LookedUpUser = z.infer<typeof LookedUpUser>;
export const LookupUsersReply = z.object({ users: z.array(LookedUpUser) });
/** Tenancy confirms a dangerous change (deleting an org) with the caller's password. */
export const VerifyPasswordRequest = z.object({ user_id: z.string().uuid(), password: z.string().max(1000) });
/** `has_password` false: an SSO-only account, which confirms another way. */
export const VerifyPasswordReply = z.object({ valid: z.boolean(), has_password: z.boolean() });
/** How many accounts exist (tenancy's admin stats). */
export const CountUsersRequest = z.object({});
export const CountUsersReply = z.object({ total_users: z.number().int() });
/**
 * Tenancy has identity mark an invited address verified before answering `POST
 * /invites/:token/accept` (read your writes: `GET /auth/me` right after shows it); the durable
 * `invite.accepted` event does the same if this request is lost.
 */
export const MarkInvitedEmailVerifiedRequest = z.object({ user_id: z.string().uuid(), email: z.string().max(320) });
export const MarkInvitedEmailVerifiedReply = z.object({});

/** Identity: users looked up, counted, their password checked and invited address verified, for tenancy. */
export const accountRpc = {
  lookupUsers: { name: "identity.lookup_users", request: LookupUsersRequest, reply: LookupUsersReply },
  verifyPassword: { name: "identity.verify_password", request: VerifyPasswordRequest, reply: VerifyPasswordReply },
  countUsers: { name: "identity.count_users", request: CountUsersRequest, reply: CountUsersReply },
  markInvitedEmailVerified: {
    name: "identity.mark_invited_email_verified",
    request: MarkInvitedEmailVerifiedRequest,
    reply: MarkInvitedEmailVerifiedReply,
  },
} as const;
