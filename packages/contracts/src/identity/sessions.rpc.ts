import { z } from "../zod";

/**
 * Whether a session may still use its access tokens. The gateway asks identity (the source of
 * truth in Postgres) when Redis cannot answer: down, or restarted and not yet re-seeded.
 */
export const SessionStatusRequest = z.object({ session_id: z.string().min(1).max(200) });
export const SessionStatusReply = z.object({ revoked: z.boolean() });
export type SessionStatusReply = z.infer<typeof SessionStatusReply>;

/** Identity: whether a session is revoked, for the gateway. */
export const sessionsRpc = {
  sessionStatus: { name: "identity.session_status", request: SessionStatusRequest, reply: SessionStatusReply },
} as const;
