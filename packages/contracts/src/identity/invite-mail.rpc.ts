import { z } from "../zod";

/**
 * Tenancy has identity's mailer send invite links (the token travels only in this request and the
 * mail, never stored in clear). Identity queues the mails and answers at once.
 */
export const SendInviteMailRequest = z.object({
  mails: z
    .array(
      z.object({
        email: z.string().max(320),
        token: z.string().regex(/^[0-9a-f]{64}$/),
        org_name: z.string(),
        org_role: z.string(),
        inviter: z.string(),
        expires_at: z.string(),
      }),
    )
    .min(1)
    .max(50),
});
export const SendInviteMailReply = z.object({ queued: z.number().int() });

/** Identity's mailer sends tenancy's invite links. */
export const inviteMailRpc = {
  sendInviteMail: { name: "identity.send_invite_mail", request: SendInviteMailRequest, reply: SendInviteMailReply },
} as const;
