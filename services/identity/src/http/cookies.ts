import type { Request, Response } from "express";
import { parseDurationMs } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { IdentityDeps } from "../domain/deps";

/** Cookie mode (spec 5.1.2): the refresh token travels as an httpOnly cookie scoped to the auth routes. */
export const REFRESH_COOKIE = "bb_refresh_token";
const COOKIE_PATH = "/api/v1/auth";

export function setRefreshCookie(res: Response, deps: IdentityDeps, token: string): void {
  res.cookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    secure: deps.config.base_url.startsWith("https:"),
    sameSite: deps.config.cookies.same_site,
    path: COOKIE_PATH,
    maxAge: parseDurationMs(deps.config.auth.refresh_token_ttl),
  });
}

export function clearRefreshCookie(res: Response, deps: IdentityDeps): void {
  res.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    secure: deps.config.base_url.startsWith("https:"),
    sameSite: deps.config.cookies.same_site,
    path: COOKIE_PATH,
  });
}

export function refreshCookieOf(req: Request): string | undefined {
  const v = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** Endpoints that set or read the cookie accept browser requests only from our own origins. */
export function checkOrigin(req: Request, deps: IdentityDeps): void {
  const origin = req.header("origin");
  if (!origin) return;
  const allowed = new Set([new URL(deps.config.base_url).origin, ...deps.config.cors.allowed_origins.map((o) => o.replace(/\/+$/, ""))]);
  if (!allowed.has(origin)) throw errors.forbidden("origin not allowed");
}
