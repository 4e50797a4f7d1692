import { Router, type Request } from "express";
import { LoginBody, PaginationQuery, RefreshBody, RegisterBody } from "@burnbox/contracts";
import { actorOf, clientIpOf, errors, parseBody, parseQuery } from "@burnbox/service-kit";
import { adminListUsers, getMe, login, register, type AuthOutcome } from "../domain/auth.use-case";
import type { ClientInfo, IdentityDeps } from "../domain/deps";
import { rotateRefreshToken, type IssuedTokens } from "../domain/sessions";

export const clientInfo = (req: Request): ClientInfo => ({ ip: clientIpOf(req), userAgent: req.header("user-agent") ?? "" });

const pair = (t: IssuedTokens) => ({ access_token: t.access_token, refresh_token: t.refresh_token, expires_in: t.expires_in });
const authBody = (o: AuthOutcome) => ({ user: o.user, tokens: pair(o.tokens) });

export function authRouter(deps: IdentityDeps): Router {
  const r = Router();
  r.post("/auth/register", async (req, res) => {
    res.status(201).json(authBody(await register(deps, parseBody(RegisterBody, req), clientInfo(req))));
  });
  r.post("/auth/login", async (req, res) => {
    res.json(authBody(await login(deps, parseBody(LoginBody, req), clientInfo(req))));
  });
  r.post("/auth/refresh", async (req, res) => {
    const body = parseBody(RefreshBody, req);
    if (!body.refresh_token) throw errors.unauthenticated("refresh token required");
    res.json(pair(await rotateRefreshToken(deps, body.refresh_token)));
  });
  r.get("/auth/me", async (req, res) => {
    res.json(await getMe(deps, actorOf(req)));
  });
  r.get("/admin/users", async (req, res) => {
    res.json(await adminListUsers(deps, actorOf(req), parseQuery(PaginationQuery, req)));
  });
  return r;
}
