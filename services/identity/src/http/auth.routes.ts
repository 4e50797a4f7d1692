import cookieParser from "cookie-parser";
import { Router, type Request, type Response } from "express";
import {
  ChangePasswordBody,
  DeleteMeBody,
  ForgotPasswordBody,
  LoginBody,
  LogoutBody,
  PendingSessionsQuery,
  RefreshBody,
  RegisterBody,
  ResetPasswordBody,
  ResolveLoginBody,
  TokenParams,
  UpdateMeBody,
} from "@burnbox/contracts";
import { actorOf, clientIpOf, errors, parseBody, parseParams, parseQuery } from "@burnbox/service-kit";
import {
  changePassword,
  datetimeSettings,
  deleteMe,
  forgotPassword,
  logout,
  resetPassword,
  ssoStatus,
  updateMe,
  verifyEmail,
} from "../domain/account.use-case";
import { getMe, login, pendingSessions, register, resolveLogin, type AuthOutcome } from "../domain/auth.use-case";
import type { ClientInfo, IdentityDeps } from "../domain/deps";
import { rotateRefreshToken, type IssuedTokens } from "../domain/sessions";
import { checkOrigin, clearRefreshCookie, refreshCookieOf, setRefreshCookie } from "./cookies";

export const clientInfo = (req: Request): ClientInfo => ({ ip: clientIpOf(req), userAgent: req.header("user-agent") ?? "" });

/** The token pair; in cookie mode the refresh token goes into the cookie and the JSON carries "". */
function pair(res: Response, deps: IdentityDeps, t: IssuedTokens, useCookie: boolean) {
  if (useCookie) setRefreshCookie(res, deps, t.refresh_token);
  return { access_token: t.access_token, refresh_token: useCookie ? "" : t.refresh_token, expires_in: t.expires_in };
}

export function authRouter(deps: IdentityDeps): Router {
  const r = Router();
  r.use("/auth", cookieParser());
  const signedIn = (req: Request, res: Response, o: AuthOutcome, useCookie: boolean) => ({
    user: o.user,
    tokens: pair(res, deps, o.tokens, useCookie),
  });

  r.post("/auth/register", async (req, res) => {
    const body = parseBody(RegisterBody, req);
    if (body.use_cookie) checkOrigin(req, deps);
    res.status(201).json(signedIn(req, res, await register(deps, body, clientInfo(req)), body.use_cookie === true));
  });
  r.post("/auth/login", async (req, res) => {
    const body = parseBody(LoginBody, req);
    if (body.use_cookie) checkOrigin(req, deps);
    res.json(signedIn(req, res, await login(deps, body, clientInfo(req)), body.use_cookie === true));
  });
  r.post("/auth/login/resolve", async (req, res) => {
    const body = parseBody(ResolveLoginBody, req);
    if (body.use_cookie) checkOrigin(req, deps);
    res.json(
      signedIn(req, res, await resolveLogin(deps, body.pending_token, body.revoke_session_id, clientInfo(req)), body.use_cookie === true),
    );
  });
  r.get("/auth/login/pending-sessions", async (req, res) => {
    res.json(await pendingSessions(deps, parseQuery(PendingSessionsQuery, req).token));
  });
  r.post("/auth/refresh", async (req, res) => {
    const body = parseBody(RefreshBody, req);
    const fromCookie = body.refresh_token ? undefined : refreshCookieOf(req);
    const token = body.refresh_token ?? fromCookie;
    if (!token) throw errors.unauthenticated("refresh token required");
    const useCookie = body.use_cookie === true || fromCookie !== undefined;
    if (useCookie) checkOrigin(req, deps);
    res.json(pair(res, deps, await rotateRefreshToken(deps, token), useCookie));
  });
  r.post("/auth/logout", async (req, res) => {
    const body = parseBody(LogoutBody, req);
    const fromCookie = refreshCookieOf(req);
    if (fromCookie) checkOrigin(req, deps);
    await logout(deps, body.refresh_token ?? fromCookie);
    if (fromCookie) clearRefreshCookie(res, deps);
    res.json({ message: "signed out" });
  });

  r.get("/auth/me", async (req, res) => {
    res.json(await getMe(deps, actorOf(req)));
  });
  r.patch("/auth/me", async (req, res) => {
    res.json(await updateMe(deps, actorOf(req), parseBody(UpdateMeBody, req), clientIpOf(req)));
  });
  r.delete("/auth/me", async (req, res) => {
    await deleteMe(deps, actorOf(req), parseBody(DeleteMeBody, req).password, clientIpOf(req));
    clearRefreshCookie(res, deps);
    res.json({ message: "account deleted" });
  });
  r.put("/auth/me/password", async (req, res) => {
    const body = parseBody(ChangePasswordBody, req);
    await changePassword(deps, actorOf(req), body.current_password, body.new_password, clientIpOf(req));
    res.json({ message: "password changed; other sessions were signed out" });
  });
  r.post("/auth/forgot-password", async (req, res) => {
    await forgotPassword(deps, parseBody(ForgotPasswordBody, req).email, clientIpOf(req));
    res.json({ message: "if an account exists for this address, a reset link has been sent" });
  });
  r.post("/auth/reset-password", async (req, res) => {
    const body = parseBody(ResetPasswordBody, req);
    await resetPassword(deps, body.token, body.new_password, clientIpOf(req));
    res.json({ message: "password reset; every session was signed out" });
  });
  r.get("/auth/verify-email/:token", async (req, res) => {
    await verifyEmail(deps, parseParams(TokenParams, req).token);
    res.json({ message: "email address verified" });
  });
  r.get("/auth/sso-status", (_req, res) => {
    res.json(ssoStatus(deps));
  });
  r.get("/auth/datetime-settings", async (req, res) => {
    res.json(await datetimeSettings(deps, actorOf(req)));
  });
  return r;
}
