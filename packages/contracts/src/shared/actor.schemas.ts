import { z } from "../zod";

/** The caller as every service sees it, from the gateway's signed internal context. */
export const Actor = z.object({
  user_id: z.string().uuid(),
  email: z.string(),
  is_system_admin: z.boolean(),
  session_id: z.string().nullable(),
  api_key: z.object({ id: z.string().uuid(), team_id: z.string().uuid(), scopes: z.array(z.string()) }).nullable(),
});
export type Actor = z.infer<typeof Actor>;
export const InternalContext = z.object({
  actor: Actor.nullable(),
  client_ip: z.string(),
  request_id: z.string(),
  traceparent: z.string().optional(),
  exp: z.number().int(),
});
export type InternalContext = z.infer<typeof InternalContext>;
