import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { expressPath, type Actor } from "@burnbox/contracts";
import { INTERNAL_CONTEXT_HEADER, signInternalContext } from "@burnbox/service-kit";
import type { Admission } from "./admission";
import type { Authenticator } from "./authenticate";
import type { Forwarder } from "./proxy";
import { authorizeRoute, FORWARDED_ROUTES, type ForwardedRoute, type ServiceUrls } from "./route-table";

/**
 * One route per forwarded operation of the contracts: the route's auth kind and API-key scope are
 * checked here, then the request goes unchanged to the service that owns it, with a signed
 * statement of who is calling.
 */
export function forwardingRouter(opts: {
  admission: Admission;
  authenticator: Authenticator;
  forwarder: Forwarder;
  upstreams: ServiceUrls;
  internalSecret: string;
}): RequestHandler {
  const forwardTo = (route: ForwardedRoute) => async (req: Request, res: Response) => {
    const caller = opts.admission.callerOf(req);
    const actor: Actor | null = caller.auth.kind === "authenticated" ? caller.auth.actor : null;
    const refused = authorizeRoute(route, actor);
    if (refused) throw refused;
    if (actor?.api_key) opts.authenticator.recordUsage(actor.api_key.id, caller.ip);
    const requestId = String(res.getHeader("X-Request-ID"));
    const traceparent = req.header("traceparent");
    const context = signInternalContext(
      { actor, client_ip: caller.ip, request_id: requestId, ...(traceparent ? { traceparent } : {}) },
      opts.internalSecret,
    );
    await opts.forwarder.forward(req, res, opts.upstreams[route.service], {
      [INTERNAL_CONTEXT_HEADER]: context,
      "x-request-id": requestId,
    });
  };
  return routeDispatcher(FORWARDED_ROUTES, forwardTo);
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
    const bucket = buckets.get(firstSegment(req.path));
    if (bucket) bucket(req, res, next);
    else next();
  };
}
