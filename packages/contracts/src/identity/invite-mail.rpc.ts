import { z } from "../zod";

/**
 * Tenancy has identity's mailer send invite links (the token travels only in this request and the
 * mail, never stored in clear). Identity queues the mails and answers at once.
 */
/** One invite mail: the address, the invite's token (in the link) and what the mail says of the invite. */
export const InviteMailFields = z.object({
  email: z.string().max(320),
  token: z.string().regex(/^[0-9a-f]{64}$/),
  org_name: z.string(),
  org_role: z.string(),
  inviter: z.string(),
  expires_at: z.string(),
});
export type InviteMailFields = z.infer<typeof InviteMailFields>;

export const SendInviteMailRequest = z.object({ mails: z.array(InviteMailFields).min(1).max(50) });
export const SendInviteMailReply = z.object({ queued: z.number().int() });

/** Identity's mailer sends tenancy's invite links. */
export const inviteMailRpc = {
  sendInviteMail: { name: "identity.send_invite_mail", request: SendInviteMailRequest, reply: SendInviteMailReply },
} as const;
