import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

export const Session = z
  .object({
    id: Uuid,
    ip_address: z.string(),
    user_agent: z.string(),
    last_used_at: Timestamp,
    created_at: Timestamp,
    expires_at: Timestamp,
    current: z.boolean(),
  })
  .openapi("Session");
export type Session = z.infer<typeof Session>;

/** Spec 2.6: a session as listed in a session-limit conflict. */
export const SessionEntry = z
  .object({ id: Uuid, ip_address: z.string(), user_agent: z.string(), last_used_at: Timestamp, created_at: Timestamp })
  .openapi("SessionEntry");
export type SessionEntry = z.infer<typeof SessionEntry>;
