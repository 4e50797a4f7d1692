import type { Request, Response } from "express";
import { parseDurationMs, type TokenPair } from "@burnbox/contracts";
import { API_PREFIX } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityConfig } from "../config";
import type { AuthOutcome } from "../domain/auth/admission";
import { originRefusal } from "../domain/auth/origin-policy";

/** Cookie mode (spec 5.1.2): the refresh token travels as an httpOnly cookie scoped to the auth routes. */
export const REFRESH_COOKIE = "bb_refresh_token";
const COOKIE_PATH = `${API_PREFIX}/auth`;

type Http = { req: Request; res: Response };

const cookieOptions = (config: IdentityConfig) => ({
  httpOnly: true,
  secure: config.base_url.startsWith("https:"),
  sameSite: config.cookies.same_site,
  path: COOKIE_PATH,
});

export function clearRefreshCookie(res: Response, config: IdentityConfig): void {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(config));
}

const cookieOf = (req: Request, name: string): string | undefined => {
  const v = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" && v.length > 0 ? v : undefined;
};

/** The refresh token of cookie mode, when the browser sent it. */
export const refreshCookieOf = (req: Request): string | undefined => cookieOf(req, REFRESH_COOKIE);

/**
 * The SSO flow cookie: set when a login or link starts, required at its callback, at the code's
 * exchange and by a session conflict it opened. HttpOnly, on the auth routes only, and always
 * SameSite=Lax: the provider's redirect back to the callback is a cross-site top-level GET, which
 * carries Lax cookies and not Strict ones.
 */
export const SSO_FLOW_COOKIE = "bb_sso_flow";

export const ssoFlowCookieOf = (req: Request): string | undefined => cookieOf(req, SSO_FLOW_COOKIE);

export function setSsoFlowCookie(res: Response, config: IdentityConfig, value: string, maxAgeMs: number): void {
  res.cookie(SSO_FLOW_COOKIE, value, { ...cookieOptions(config), sameSite: "lax", maxAge: maxAgeMs });
}

/** Endpoints that set or read the cookie accept browser requests only from our own origins. */
function checkOrigin(req: Request, config: IdentityConfig): void {
  const refusal = originRefusal(config, req.header("origin"));
  if (refusal) throw errors.forbidden(refusal);
}

/** The token pair to answer; in cookie mode the refresh token goes into the cookie and the JSON carries "". */
function answerTokens(http: Http, config: IdentityConfig, t: TokenPair, useCookie: boolean): TokenPair {
  if (useCookie) {
    http.res.cookie(REFRESH_COOKIE, t.refresh_token, { ...cookieOptions(config), maxAge: parseDurationMs(config.auth.refresh_token_ttl) });
  }
  return { access_token: t.access_token, refresh_token: useCookie ? "" : t.refresh_token, expires_in: t.expires_in };
}

/** A sign-in (register, login, resolve): the origin is checked before, the cookie set after, in cookie mode. */
export async function signIn(config: IdentityConfig, http: Http, useCookie: boolean | undefined, run: () => Promise<AuthOutcome>) {
  if (useCookie) checkOrigin(http.req, config);
  const outcome = await run();
  return { user: outcome.user, tokens: answerTokens(http, config, outcome.tokens, useCookie === true) };
}

/** A refresh with the token of the body, else of the cookie (which puts the answer in cookie mode). */
export async function refreshWith(
  config: IdentityConfig,
  http: Http,
  body: { refresh_token?: string | undefined; use_cookie?: boolean | undefined },
  run: (refreshToken: string) => Promise<TokenPair>,
): Promise<TokenPair> {
  const fromCookie = body.refresh_token ? undefined : refreshCookieOf(http.req);
  const token = body.refresh_token ?? fromCookie;
  if (!token) throw errors.unauthenticated("refresh token required");
  const useCookie = body.use_cookie === true || fromCookie !== undefined;
  if (useCookie) checkOrigin(http.req, config);
  return answerTokens(http, config, await run(token), useCookie);
}

/** A logout with the token of the body, else of the cookie, which is then cleared. */
export async function logoutWith<T>(
  config: IdentityConfig,
  http: Http,
  body: { refresh_token?: string | undefined },
  run: (refreshToken: string | undefined) => Promise<T>,
): Promise<T> {
  const fromCookie = refreshCookieOf(http.req);
  if (fromCookie) checkOrigin(http.req, config);
  const out = await run(body.refresh_token ?? fromCookie);
  if (fromCookie) clearRefreshCookie(http.res, config);
  return out;
}
