import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { SsoProviderName, SsoProviderType } from "./sso-admin.schemas";

export const SsoLoginParams = z.object({ provider: SsoProviderName });

/** `intent=link` with a ticket from POST /ws/ticket links the provider to the ticket's user. */
export const SsoStartQuery = z.object({
  intent: z.enum(["login", "link"]).optional(),
  ticket: z.string().min(1).max(200).optional(),
});

/** The provider's authorization response (RFC 6749 4.1.2, RFC 9207 `iss`). */
export const SsoCallbackQuery = z.object({
  state: z.string().max(500).optional(),
  code: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  session_state: z.string().max(500).optional(),
  scope: z.string().max(2000).optional(),
});

export const SsoExchangeBody = z
  .object({ code: z.string().min(1).max(200), use_cookie: z.boolean().optional() })
  .openapi("SsoExchangeRequest");
export type SsoExchangeBody = z.infer<typeof SsoExchangeBody>;

export const SsoIdentity = z
  .object({ id: Uuid, provider: z.string(), subject: z.string(), email: z.string(), linked_at: Timestamp, last_used_at: Timestamp })
  .openapi("SsoIdentity");
export type SsoIdentity = z.infer<typeof SsoIdentity>;

/** An enabled provider as `/auth/sso-status` lists it (never secrets). */
export const SsoProviderSummary = z
  .object({ name: z.string(), provider_type: SsoProviderType, label: z.string() })
  .openapi("SsoProviderSummary");
export type SsoProviderSummary = z.infer<typeof SsoProviderSummary>;
