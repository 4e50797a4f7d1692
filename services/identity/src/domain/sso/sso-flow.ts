import { z } from "zod";
import { API_PREFIX } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";

/** The authorization request's secrets live server-side for 10 minutes, single use. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** The one-time code the frontend exchanges for tokens: 60 seconds, single use. */
export const SSO_CODE_TTL_MS = 60_000;

/**
 * The flow cookie binds a login to the browser that started it: set at the start (an opaque
 * secret, HttpOnly), its hash kept with the state, the one-time code and a session-conflict's
 * pending token, and required with each of them. It outlives the state and a pending login after it.
 */
export const SSO_FLOW_TTL_MS = 20 * 60_000;
const FLOW_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The flow cookie a start reuses (several logins in tabs of one browser share it), else a fresh one. */
export const flowValueOr = (cookie: string | undefined, fresh: () => string): string =>
  cookie !== undefined && FLOW_VALUE.test(cookie) ? cookie : fresh();

export const StatePayload = z.object({
  provider_id: z.string().uuid(),
  code_verifier: z.string(),
  nonce: z.string(),
  intent: z.enum(["login", "link"]),
  user_id: z.string().uuid().nullable(),
  /** sha256 of the flow cookie of the browser that started. */
  flow: z.string(),
});
export type StatePayload = z.infer<typeof StatePayload>;

export const CodePayload = z.object({ sealed: z.string(), flow: z.string() });

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

/**
 * `link_required`: an account has the address, and the provider may not link to it by itself (the
 * account's address is unverified, or the provider is not trusted for email): the user signs in with
 * the password and links the provider from the account page. `other_browser`: the callback came
 * without the flow cookie of the browser that started. `link_session_required`: a link finished in
 * a browser that is not signed in as the user who started it.
 */
export type SsoErrorCode =
  | "access_denied"
  | "sso_failed"
  | "email_not_verified"
  | "not_provisioned"
  | "provider_unavailable"
  | "already_linked"
  | "link_failed"
  | "link_required"
  | "other_browser"
  | "link_session_required";
