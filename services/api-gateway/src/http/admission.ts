import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { ErrorCode, identityServiceRoutes, type RateLimitBody, type RouteDef, routeOf } from "@burnbox/contracts";
import { API_PREFIX, enrichContext, headerOf, requestPath, writeJson, type HttpRequest } from "@burnbox/service-kit/http";
import { AppError, pipeline } from "@burnbox/service-kit/runtime";
import type { GatewayConfig } from "../config";
import type { Authenticator, AuthOutcome } from "./authenticate";
import { clientIp, parseCidrs } from "./client-ip";
import type { RateDecision, RateLimiter, RateRule } from "./rate-limit";

const MAX_BODY_BYTES = 1024 * 1024;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The operations with a per-IP limit of their own on top of the caller's bucket (spec 8). */
const LOGIN = routeOf(identityServiceRoutes, "login");
const FORGOT_PASSWORD = routeOf(identityServiceRoutes, "forgotPassword");

/** Who sent a request, as decided once by `admit` and read by the forwarder. */
export interface Caller {
  ip: string;
  auth: AuthOutcome;
}

export interface Admission {
  /** Authenticates and rate-limits every /api/v1 request before routing (express's, or node's own in the forwarding lane). */
  admit: (req: HttpRequest, res: ServerResponse, next: NextFunction) => Promise<void>;
  /** The caller `admit` let through. */
  callerOf: (req: HttpRequest) => Caller;
  /** The rate-limit headers of the caller's anonymous window, without counting the request. */
  showWindow: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  clientIpOf: (req: HttpRequest) => string;
}

export function createAdmission(opts: { config: GatewayConfig; authenticator: Authenticator; limiter: RateLimiter }): Admission {
  const { authenticator, limiter } = opts;
  const rl = opts.config.rate_limit;
  const trusted = parseCidrs(rl.trusted_proxies);
  const callers = new WeakMap<HttpRequest, Caller>();

  /** Each connection's peer address, normalized once (a keep-alive connection carries many requests). */
  const peers = new WeakMap<object, string>();
  const clientIpOf = (req: HttpRequest) => {
    const forwardedFor = headerOf(req, "x-forwarded-for");
    if (trusted.length > 0 && forwardedFor !== undefined) return clientIp(req.socket.remoteAddress ?? "", forwardedFor, trusted);
    // without a trusted proxy or X-Forwarded-For, clientIp is the normalized peer
    let peer = peers.get(req.socket);
    if (peer === undefined) {
      const remote = req.socket.remoteAddress;
      peer = clientIp(remote ?? "", undefined, trusted);
      if (remote !== undefined) peers.set(req.socket, peer);
    }
    return peer;
  };

  const calls = (req: HttpRequest, route: RouteDef) =>
    req.method === route.method.toUpperCase() && requestPath(req).replace(/\/+$/, "") === `${API_PREFIX}${route.path}`;

  /** Bucket by how the request authenticated (spec 8), plus the per-IP login and forgot-password limits. */
  const rulesFor = (req: HttpRequest, caller: Caller): RateRule[] => {
    const rules: RateRule[] =
      caller.auth.kind === "authenticated"
        ? [{ name: "user", subject: caller.auth.actor.user_id, limit: rl.authenticated_per_minute, windowMs: MINUTE }]
        : [anonymousRule(caller.ip)];
    if (calls(req, LOGIN)) rules.push({ name: "login", subject: caller.ip, limit: rl.login_per_minute, windowMs: MINUTE });
    if (calls(req, FORGOT_PASSWORD)) {
      rules.push({ name: "forgot", subject: caller.ip, limit: rl.forgot_password_per_hour, windowMs: HOUR });
    }
    return rules;
  };

  const anonymousRule = (ip: string): RateRule => ({ name: "ip", subject: ip, limit: rl.unauthenticated_per_minute, windowMs: MINUTE });

  return {
    clientIpOf,
    callerOf: (req) => {
      const caller = callers.get(req);
      if (!caller) throw new Error("request was not admitted");
      return caller;
    },
    admit: async (req, res, next) => {
      const ip = clientIpOf(req);
      const auth = await authenticator.authenticate(headerOf(req, "authorization"), ip);
      const caller: Caller = { ip, auth };
      callers.set(req, caller);
      if (auth.kind === "authenticated") enrichContext({ user_id: auth.actor.user_id });
      // the keys' usage counted so far goes in the same write as the window's command (and before it)
      void authenticator.flushUsage();
      const decision = rl.enabled ? await limiter.hit(rulesFor(req, caller)) : await limiter.peek(rulesFor(req, caller));
      setRateHeaders(res, decision);
      if (!decision.allowed) {
        pipeline.rateLimitRefusals.inc({ bucket: caller.auth.kind === "authenticated" ? "user" : "ip" });
        res.setHeader("Retry-After", String(decision.retryAfter));
        const body: RateLimitBody = { error: "rate limit exceeded", retry_after: decision.retryAfter };
        writeJson(res, 429, body, req);
        return;
      }
      if (auth.kind === "rejected") {
        next(auth.error);
        return;
      }
      if (Number(headerOf(req, "content-length") ?? 0) > MAX_BODY_BYTES) {
        next(new AppError(ErrorCode.payload_too_large, "request body too large"));
        return;
      }
      next();
    },
    showWindow: async (req, res, next) => {
      if (!res.getHeader("X-RateLimit-Limit")) setRateHeaders(res, await limiter.peek([anonymousRule(clientIpOf(req))]));
      next();
    },
  };
}

function setRateHeaders(res: ServerResponse, d: RateDecision): void {
  res.setHeader("X-RateLimit-Limit", String(d.limit));
  res.setHeader("X-RateLimit-Remaining", String(d.remaining));
  res.setHeader("X-RateLimit-Reset", String(d.reset));
}
