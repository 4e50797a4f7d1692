import { z } from "../zod";

/** Whether any org the user belongs to enforces SSO (password logins are then refused). */
export const SsoEnforcedRequest = z.object({ user_id: z.string().uuid() });
export const SsoEnforcedReply = z.object({ enforced: z.boolean() });

/** Tenancy: whether an org of the user enforces SSO. */
export const orgsRpc = {
  ssoEnforced: { name: "tenancy.sso_enforced", request: SsoEnforcedRequest, reply: SsoEnforcedReply },
} as const;
