import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { Router, type Express, type NextFunction, type Request, type Response } from "express";
import { ErrorCode, expressPath, type RateLimitBody, type Actor, type RouteDef } from "@burnbox/contracts";
import {
  AppError,
  checkAll,
  createHttpApp,
  enrichContext,
  errors,
  finalizeHttpApp,
  listen,
  signInternalContext,
  INTERNAL_CONTEXT_HEADER,
  type Infra,
} from "@burnbox/service-kit";
import type { GatewayConfig } from "./config";
import { Authenticator, type AuthOutcome } from "./http/authenticate";
import { clientIp, isPrivateOrLoopback, parseCidrs } from "./http/client-ip";
import { docsRouter } from "./http/docs.routes";
import { Forwarder, proxyUpgrade } from "./http/proxy";
import { RateLimiter, type RateDecision, type RateRule } from "./http/rate-limit";
import { authorizeRoute, FORWARDED_ROUTES, type ServiceUrls } from "./http/route-table";

export const API_PREFIX = "/api/v1";
const MAX_BODY_BYTES = 1024 * 1024;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Caller {
  ip: string;
  auth: AuthOutcome;
}

export interface RunningGateway {
  port: number;
  app: Express;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, infra: Infra): Promise<RunningGateway> {
  const { logger, metrics } = infra;
  if (!infra.redis) throw new Error("api-gateway needs Redis");
  const redis = infra.redis;
  const trusted = parseCidrs(config.rate_limit.trusted_proxies);
  const authenticator = new Authenticator({
    jwtSecret: config.auth.jwt_secret,
    redis,
    redisPrefix: config.redis.key_prefix,
    nc: infra.nc,
    namespace: config.nats.namespace,
    logger,
    apiKeyCacheTtlSeconds: config.api_keys.cache_ttl_seconds,
  });
  const limiter = new RateLimiter(redis, config.redis.key_prefix, logger);
  const forwarder = new Forwarder(logger, config.services.timeout_ms);
  const upstreams: ServiceUrls = {
    identity: new URL(config.services.identity_url),
    tenancy: new URL(config.services.tenancy_url),
    inbox: new URL(config.services.inbox_url),
    "webhook-dispatcher": new URL(config.services.webhook_dispatcher_url),
    "realtime-gateway": new URL(config.services.realtime_gateway_url),
  };
  const callers = new WeakMap<Request, Caller>();

  const ipOf = (req: Request) => clientIp(req.socket.remoteAddress ?? "", req.header("x-forwarded-for"), trusted);

  /** Bucket by how the request authenticated (spec 8), plus the per-IP login and forgot-password limits. */
  const rulesFor = (req: Request, caller: Caller): RateRule[] => {
    const rl = config.rate_limit;
    const rules: RateRule[] =
      caller.auth.kind === "authenticated"
        ? [{ name: "user", subject: caller.auth.actor.user_id, limit: rl.authenticated_per_minute, windowMs: MINUTE }]
        : [{ name: "ip", subject: caller.ip, limit: rl.unauthenticated_per_minute, windowMs: MINUTE }];
    const path = (req.originalUrl.split("?")[0] ?? "").replace(/\/+$/, "");
    if (req.method === "POST" && path === `${API_PREFIX}/auth/login`) {
      rules.push({ name: "login", subject: caller.ip, limit: rl.login_per_minute, windowMs: MINUTE });
    }
    if (req.method === "POST" && path === `${API_PREFIX}/auth/forgot-password`) {
      rules.push({ name: "forgot", subject: caller.ip, limit: rl.forgot_password_per_hour, windowMs: HOUR });
    }
    return rules;
  };

  const setRateHeaders = (res: Response, d: RateDecision) => {
    res.setHeader("X-RateLimit-Limit", String(d.limit));
    res.setHeader("X-RateLimit-Remaining", String(d.remaining));
    res.setHeader("X-RateLimit-Reset", String(d.reset));
  };

  const anonymousRule = (ip: string): RateRule => ({
    name: "ip",
    subject: ip,
    limit: config.rate_limit.unauthenticated_per_minute,
    windowMs: MINUTE,
  });

  /** Authenticates and rate-limits every /api/v1 request before routing. */
  const admit = async (req: Request, res: Response, next: NextFunction) => {
    const ip = ipOf(req);
    const auth = await authenticator.authenticate(req.header("authorization"), ip);
    const caller: Caller = { ip, auth };
    callers.set(req, caller);
    if (auth.kind === "authenticated") enrichContext({ user_id: auth.actor.user_id });
    const decision = config.rate_limit.enabled ? await limiter.hit(rulesFor(req, caller)) : await limiter.peek(rulesFor(req, caller));
    setRateHeaders(res, decision);
    if (!decision.allowed) {
      res.setHeader("Retry-After", String(decision.retryAfter));
      const body: RateLimitBody = { error: "rate limit exceeded", retry_after: decision.retryAfter };
      res.status(429).json(body);
      return;
    }
    if (auth.kind === "rejected") {
      next(auth.error);
      return;
    }
    const length = Number(req.header("content-length") ?? 0);
    if (length > MAX_BODY_BYTES) {
      next(new AppError(ErrorCode.payload_too_large, "request body too large"));
      return;
    }
    next();
  };

  const forwardTo = (route: RouteDef) => async (req: Request, res: Response) => {
    const caller = callers.get(req) as Caller;
    const actor: Actor | null = caller.auth.kind === "authenticated" ? caller.auth.actor : null;
    const refused = authorizeRoute(route, actor);
    if (refused) throw refused;
    if (actor?.api_key) authenticator.recordUsage(actor.api_key.id, caller.ip);
    const requestId = String(res.getHeader("X-Request-ID"));
    const context = signInternalContext(
      {
        actor,
        client_ip: caller.ip,
        request_id: requestId,
        ...(req.header("traceparent") ? { traceparent: req.header("traceparent") } : {}),
      },
      config.internal.secret,
    );
    await forwarder.forward(req, res, upstreams[route.service as keyof ServiceUrls], {
      [INTERNAL_CONTEXT_HEADER]: context,
      "x-request-id": requestId,
    });
  };

  const api = Router();
  api.use(admit);
  api.use(docsRouter("0.1.0"));
  for (const route of FORWARDED_ROUTES) {
    api[route.method](expressPath(route.path), forwardTo(route));
  }

  const app = createHttpApp({
    logger,
    metrics,
    beforeBody: (a) => {
      // Root operational endpoints: not rate-limited, but they still show the caller's window.
      a.use(["/healthz", "/readyz", config.metrics.path], async (req: Request, res: Response, next: NextFunction) => {
        setRateHeaders(res, await limiter.peek([anonymousRule(ipOf(req))]));
        next();
      });
      a.get("/healthz", (_req: Request, res: Response) => {
        res.json({ status: "ok" });
      });
      a.get("/readyz", async (_req: Request, res: Response) => {
        const checks = await checkAll(infra.checks);
        const ok = Object.values(checks).every((s) => s === "ok");
        res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "unavailable", checks });
      });
      a.get(config.metrics.path, async (req: Request, res: Response, next: NextFunction) => {
        // Only when enabled, and only to loopback or private callers (spec 4.5, Health).
        if (!config.metrics.enabled || !isPrivateOrLoopback(ipOf(req))) {
          next(errors.notFound("route"));
          return;
        }
        await metrics.handler(req, res, next);
      });
      a.use(API_PREFIX, api);
      // Unknown paths outside /api/v1 still carry the rate-limit headers of the caller's window.
      a.use(async (req: Request, res: Response, next: NextFunction) => {
        if (!res.getHeader("X-RateLimit-Limit")) setRateHeaders(res, await limiter.peek([anonymousRule(ipOf(req))]));
        next();
      });
    },
  });
  finalizeHttpApp(app, logger);

  const server = await listen(app, config.http.port, config.http.host);
  const realtime = upstreams["realtime-gateway"];
  server.server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if ((req.url ?? "").startsWith(`${API_PREFIX}/ws/`)) proxyUpgrade(req, socket, head, realtime, logger);
    else
      socket.end(
        'HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"route not found","code":"not_found"}',
      );
  });
  logger.info({ port: server.port }, "api-gateway listening");

  return {
    port: server.port,
    app,
    stop: async () => {
      await server.close();
      forwarder.close();
    },
  };
}
