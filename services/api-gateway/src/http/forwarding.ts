import { Router, type Request, type Response } from "express";
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
}): Router {
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

  const router = Router();
  for (const route of FORWARDED_ROUTES) router[route.method](expressPath(route.path), forwardTo(route));
  return router;
}
