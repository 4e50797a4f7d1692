import { z } from "zod";
import { API_PREFIX } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";

/** The authorization request's secrets live server-side for 10 minutes, single use. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** The one-time code the frontend exchanges for tokens: 60 seconds, single use. */
export const SSO_CODE_TTL_MS = 60_000;

export const StatePayload = z.object({
  provider_id: z.string().uuid(),
  code_verifier: z.string(),
  nonce: z.string(),
  intent: z.enum(["login", "link"]),
  user_id: z.string().uuid().nullable(),
});
export type StatePayload = z.infer<typeof StatePayload>;

export const CodePayload = z.object({ sealed: z.string() });

export const redirectUriOf = (deps: IdentityDeps, name: string): string =>
  `${deps.config.base_url.replace(/\/+$/, "")}${API_PREFIX}/auth/sso/${encodeURIComponent(name)}/callback`;

const frontend = (deps: IdentityDeps): string => (deps.config.frontend_url || deps.config.base_url).replace(/\/+$/, "");

/** `<frontend_url>/login?sso_code=...` */
export const codeRedirect = (deps: IdentityDeps, code: string): string => `${frontend(deps)}/login?sso_code=${encodeURIComponent(code)}`;

/** `<frontend_url>/login#session_conflict=true&pending_token=...&limit=...` */
export const conflictRedirect = (deps: IdentityDeps, pendingToken: string, limit: number): string =>
  `${frontend(deps)}/login#session_conflict=true&pending_token=${encodeURIComponent(pendingToken)}&limit=${limit}`;

/** `<frontend_url>/login#error=<short code>` */
export const errorRedirect = (deps: IdentityDeps, code: SsoErrorCode): string => `${frontend(deps)}/login#error=${code}`;

/** Where a successful link lands: the account settings. */
export const linkedRedirect = (deps: IdentityDeps, provider: string): string =>
  `${frontend(deps)}/settings#sso_linked=${encodeURIComponent(provider)}`;

export type SsoErrorCode =
  "access_denied" | "sso_failed" | "email_not_verified" | "not_provisioned" | "provider_unavailable" | "already_linked" | "link_failed";
