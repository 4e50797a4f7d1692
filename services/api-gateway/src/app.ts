import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import type { Express, NextFunction, Request, Response } from "express";
import { Router } from "express";
import { apiGatewayServiceRoutes, buildOpenApiDocument } from "@burnbox/contracts";
import { redisReady } from "@burnbox/service-kit/data";
import {
  API_PREFIX,
  bindRoutes,
  createHttpApp,
  finalizeHttpApp,
  listen,
  metricsOnHttpPort,
  mountHealth,
  requestFrame,
  serveMetricsPort,
} from "@burnbox/service-kit/http";
import { errors, StopList, type Infra } from "@burnbox/service-kit/runtime";
import type { GatewayConfig } from "./config";
import type { GatewayDeps } from "./domain/deps";
import { ConsoleFiles } from "./adapters/console-files";
import { createAdmission } from "./http/admission";
import { Authenticator } from "./http/authenticate";
import { isPrivateOrLoopback, parseCidrs } from "./http/client-ip";
import { consoleHandler } from "./http/console";
import { docsAssetsRouter } from "./http/docs-assets";
import { docsHandlers } from "./http/docs.handlers";
import { forwardingLane, forwardingRouter } from "./http/forwarding";
import { withHsts } from "./http/hsts";
import { Forwarder, proxyUpgrade } from "./http/proxy";
import { RateLimiter } from "./http/rate-limit";
import type { ServiceUrls } from "./http/route-table";
import { parseUpstreamList, UpstreamPool } from "./http/upstreams";
import { upgradeRequiredRouter } from "./http/ws-streams";

const VERSION = "0.1.0";
/** WebSocket upgrades under this prefix go to realtime-gateway (the streams of the contracts' WS_ROUTES; it refuses any other path). */
const WS_PREFIX = `${API_PREFIX}/ws/`;

export interface RunningService {
  port: number;
  app: Express;
  stop(): Promise<void>;
}

export async function startService(config: GatewayConfig, infra: Infra): Promise<RunningService> {
  const { logger, metrics } = infra;
  if (!infra.redis) throw new Error("api-gateway needs Redis");
  // The request path's Redis work (rate-limit windows, revocation checks, key lookups) on a
  // connection of its own that auto-pipelines: the commands of all requests in one event-loop
  // turn, and those issued while a batch is out, go to Redis in one write and come back in one
  // read, instead of a round trip per command. Same URL and options as the kit's client
  // (fails fast while Redis is down, reconnects by itself); the kit's client keeps health checks.
  const redis = infra.redis.duplicate({ enableAutoPipelining: true });
  // what starts is added as it starts; stop() stops it in the reverse order (the server first, this connection last)
  const stops = new StopList();
  stops.addStep(() => redis.disconnect());
  redis.on("error", (err: Error) => logger.debug({ err: { message: err.message } }, "request-path redis connection error"));
  // the kit waited for its own client already: wait for this one only when Redis answered that one
  if (infra.redis.status === "ready") {
    await redisReady(redis).catch((err: unknown) => logger.warn({ err }, "redis not reachable at start; continuing"));
  }
  const authenticator = new Authenticator({
    jwtSecret: config.auth.jwt_secret,
    ...(config.auth.jwt_secret_previous ? { jwtSecretPrevious: config.auth.jwt_secret_previous } : {}),
    redis,
    redisPrefix: config.redis.key_prefix,
    nc: infra.nc,
    namespace: config.nats.namespace,
    logger,
    apiKeyCacheTtlSeconds: config.api_keys.cache_ttl_seconds,
  });
  // the usage not sent yet (at most USAGE_FLUSH_MS of it), given a moment before the connection goes
  stops.addStep(async () => {
    await Promise.race([authenticator.flushUsage(), new Promise((done) => setTimeout(done, 1000).unref())]);
  });
  const limiter = new RateLimiter(redis, config.redis.key_prefix, logger);
  const admission = createAdmission({ config, authenticator, limiter });
  const forwarder = new Forwarder(logger, config.services.timeout_ms);
  stops.addStep(() => forwarder.close());
  // a forwarded wait may outlast shutdown.drain_timeout: on drain it is answered, not cut
  const removeDrainHook = infra.drain.onDrain(() => forwarder.drainLongPolls());
  const upstreams: ServiceUrls = {
    identity: new UpstreamPool(parseUpstreamList(config.services.identity_url)),
    tenancy: new UpstreamPool(parseUpstreamList(config.services.tenancy_url)),
    inbox: new UpstreamPool(parseUpstreamList(config.services.inbox_url)),
    "webhook-dispatcher": new UpstreamPool(parseUpstreamList(config.services.webhook_dispatcher_url)),
    "realtime-gateway": new UpstreamPool(parseUpstreamList(config.services.realtime_gateway_url)),
  };
  const deps: GatewayDeps = { openApi: buildOpenApiDocument(undefined, VERSION) };
  const consoleDir = config.console.dir || path.join(__dirname, "console");
  const consoleFiles = ConsoleFiles.load(consoleDir);
  if (consoleFiles) logger.info({ dir: consoleDir }, "serving the web console at /");
  else logger.warn({ dir: consoleDir }, "no built web console there (pnpm build): / answers 404");

  const forwarding = { admission, authenticator, forwarder, upstreams, internalSecret: config.internal.secret };
  const api = Router();
  api.use(admission.admit);
  // Forwarded operations first: no forwarded path begins with the docs' segment. (The lane below
  // serves nearly all of them; HEAD and OPTIONS requests for them still come this way.)
  api.use(forwardingRouter(forwarding));
  api.use(upgradeRequiredRouter());
  api.use(bindRoutes(apiGatewayServiceRoutes, docsHandlers(deps)));
  api.use(docsAssetsRouter());

  const app = createHttpApp({
    logger,
    metrics,
    // Before the JSON parser: the gateway streams bodies to the services unread.
    beforeBody: (a) => {
      // Root operational endpoints: not rate-limited, but they still show the caller's window.
      a.use(["/healthz", "/readyz", config.metrics.path], admission.showWindow);
      // readiness: NATS not closed for good, not draining; Redis is not in it (the gateway serves
      // without Redis: its own fallback), so a Redis blink leaves every gateway in its Service
      mountHealth(a, infra.ready, { drain: infra.drain });
      a.get(config.metrics.path, async (req: Request, res: Response, next: NextFunction) => {
        // Only when enabled on this port (not on a metrics.port of its own), and only to loopback
        // or private callers (spec 4.5, Health).
        if (!metricsOnHttpPort(config) || !isPrivateOrLoopback(admission.clientIpOf(req))) {
          next(errors.notFound("route"));
          return;
        }
        await metrics.handler(req, res, next);
      });
      a.use(API_PREFIX, api);
      // Unknown paths outside /api/v1 still carry the rate-limit headers of the caller's window.
      a.use(admission.showWindow);
      // Every other GET outside /api/ is the web console's: a file of its build, else its page.
      if (consoleFiles) a.use(consoleHandler(consoleFiles, ["/healthz", "/readyz", config.metrics.path]));
    },
  });
  finalizeHttpApp(app, logger);

  // Forwarded operations go straight to the forwarding lane, everything else to express.
  const lane = forwardingLane({ ...forwarding, frame: requestFrame({ logger, metrics }), logger, fallback: app });
  const metricsPort = await serveMetricsPort(config, metrics, logger);
  // HSTS first: every answer to a request that came over https carries it
  const entry = withHsts(lane, config.hsts, parseCidrs(config.rate_limit.trusted_proxies));
  const server = await listen(entry, config.http.port, config.http.host, { drainTimeoutMs: infra.drain.settings.timeoutMs });
  server.server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = req.url ?? "";
    if (url.startsWith(WS_PREFIX)) proxyUpgrade(req, url, socket, head, upstreams["realtime-gateway"], logger);
    else
      socket.end(
        'HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"route not found","code":"not_found"}',
      );
  });
  logger.info({ port: server.port }, "api-gateway listening");
  // the two listeners close together; before them (added last), the drain hook goes
  stops.add([server, ...(metricsPort ? [metricsPort] : [])].map((l) => ({ stop: () => l.close() })));
  stops.addStep(removeDrainHook);

  return {
    port: server.port,
    app,
    stop: () => stops.stop(),
  };
}
