import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { expressPath, type Actor } from "@burnbox/contracts";
import { API_PREFIX, headerOf, sendError, type HttpRequest } from "@burnbox/service-kit/http";
import type { Logger } from "@burnbox/service-kit/runtime";
import { INTERNAL_CONTEXT_HEADER, signInternalContext } from "@burnbox/service-kit/security";
import { setHttpRoute } from "@burnbox/service-kit/telemetry";
import type { Admission } from "./admission";
import type { Authenticator } from "./authenticate";
import type { Forwarder } from "./proxy";
import { authorizeRoute, FORWARDED_ROUTES, type ForwardedRoute, type ServiceUrls } from "./route-table";

export interface ForwardingDeps {
  admission: Admission;
  authenticator: Authenticator;
  forwarder: Forwarder;
  upstreams: ServiceUrls;
  internalSecret: string;
}

/**
 * One forwarded operation: the route's auth kind and API-key scope are checked here, then the
 * request goes unchanged to the service that owns it, with a signed statement of who is calling.
 */
function forwardTo(opts: ForwardingDeps, route: ForwardedRoute) {
  return async (req: HttpRequest, res: ServerResponse): Promise<void> => {
    const caller = opts.admission.callerOf(req);
    const actor: Actor | null = caller.auth.kind === "authenticated" ? caller.auth.actor : null;
    const refused = authorizeRoute(route, actor);
    if (refused) throw refused;
    // counted now, sent with the next request's Redis command, and at the latest before this answer goes out
    const usage = actor?.api_key ? opts.authenticator.recordUsage(actor.api_key.id, caller.ip) : 0;
    const requestId = String(res.getHeader("X-Request-ID"));
    const traceparent = headerOf(req, "traceparent");
    const context = signInternalContext(
      { actor, client_ip: caller.ip, request_id: requestId, ...(traceparent ? { traceparent } : {}) },
      opts.internalSecret,
    );
    await opts.forwarder.forward(
      req,
      res,
      opts.upstreams[route.service],
      { [INTERNAL_CONTEXT_HEADER]: context, "x-request-id": requestId },
      route.holdsUpToMs,
      usage > 0 ? () => opts.authenticator.usageSentBy(usage) : undefined,
    );
  };
}

/** The forwarded operations as express routes (after `admission.admit`, under the API prefix). */
export function forwardingRouter(opts: ForwardingDeps): RequestHandler {
  return routeDispatcher(FORWARDED_ROUTES, (route) => forwardTo(opts, route));
}

/** What express's router adds to a request, set by hand or by the routers the lane calls. */
type LaneRequest = HttpRequest & { baseUrl?: string; params?: unknown; route?: unknown; next?: unknown };

/** The methods the lane serves; HEAD and OPTIONS (which express's router answers itself) go to express. */
const LANE_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * The forwarded operations served without express's application (about a third of the gateway's
 * CPU per request went to `app.handle`: the prototypes it swaps onto each request and response and
 * its layers), with what express would do for them and nothing else: the same per-segment routers
 * decide which route a request is (case, trailing slash and percent-escapes as express has them),
 * then the kit's `requestFrame` (request id, access log, security headers, metric), `admit`, the
 * forward, and the kit's error writer, as in the express app. A request the routers do not match
 * (or a HEAD or OPTIONS) goes to `fallback`, the express app, untouched: nothing of it has run yet.
 */
export function forwardingLane(
  opts: ForwardingDeps & {
    frame: (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;
    logger: Logger;
    fallback: RequestListener;
  },
): RequestListener {
  /** What serving one route takes: its forward, and the pattern express's instrumentation gives it under the prefix's mount. */
  type Served = { forward: ReturnType<typeof forwardTo>; pattern: string };
  const onMatch = new WeakMap<IncomingMessage, (served: Served) => void>();
  const match = routeDispatcher(FORWARDED_ROUTES, (route) => {
    const served: Served = { forward: forwardTo(opts, route), pattern: `${API_PREFIX}${expressPath(route.path)}` };
    return (req) => onMatch.get(req)?.(served);
  });

  const serve = (req: LaneRequest, res: ServerResponse, { forward, pattern }: Served) => {
    const fail = (err: unknown) => sendError(res, err, opts.logger, req);
    setHttpRoute(pattern);
    opts.frame(req, res, () => {
      opts.admission
        .admit(req, res, (err?: unknown) => {
          if (err) fail(err);
          else forward(req, res).catch(fail);
        })
        .catch(fail);
    });
  };

  return (incoming, res) => {
    const req = incoming as LaneRequest;
    const url = req.url ?? "";
    if (!LANE_METHODS.has(req.method ?? "") || !url.startsWith(`${API_PREFIX}/`)) {
      opts.fallback(req, res);
      return;
    }
    // as inside express's router mounted at the prefix
    req.originalUrl = url;
    req.url = url.slice(API_PREFIX.length);
    req.baseUrl = API_PREFIX;
    onMatch.set(req, (served) => {
      onMatch.delete(req);
      serve(req, res, served);
    });
    match(req as unknown as Request, res as unknown as Response, () => {
      onMatch.delete(req);
      // back as it came, for express to route from the start
      req.url = url;
      delete req.originalUrl;
      delete req.baseUrl;
      delete req.params;
      delete req.route;
      delete req.next;
      opts.fallback(req, res);
    });
  };
}

/** A path's first segment, lower-cased: `/Inboxes/123` → `inboxes`; `/` → ``. */
export function firstSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The routes as express would route them (in order, case-insensitive, an optional trailing slash,
 * HEAD served by GET, OPTIONS answered with the methods a path allows, parameters that do not
 * percent-decode refused), but with one express router per first path segment instead of one for
 * all: a request is matched against the few routes that can match it (three for `/inboxes/...`),
 * not against every route listed before its own (GET /inboxes/{id} was the 132nd of 158).
 * Every route begins with a literal segment, so a route of another bucket can never match a path.
 */
export function routeDispatcher<R extends { method: ForwardedRoute["method"]; path: string }>(
  routes: readonly R[],
  handlerFor: (route: R) => RequestHandler,
): RequestHandler {
  const buckets = new Map<string, Router>();
  for (const route of routes) {
    const path = expressPath(route.path);
    const segment = firstSegment(path);
    if (!/^[a-z0-9._~-]+$/.test(segment)) throw new Error(`route ${route.method} ${route.path} must begin with a literal segment`);
    let bucket = buckets.get(segment);
    if (!bucket) {
      bucket = Router();
      buckets.set(segment, bucket);
    }
    bucket[route.method](path, handlerFor(route));
  }
  return function forwardedRoutes(req: Request, res: Response, next: NextFunction) {
    // the path below the router's mount, as express's req.path (not used: it needs express's request)
    const url = req.url;
    const q = url.indexOf("?");
    const bucket = buckets.get(firstSegment(q < 0 ? url : url.slice(0, q)));
    if (bucket) bucket(req, res, next);
    else next();
  };
}
