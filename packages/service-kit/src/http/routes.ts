import { Router, type Request, type Response } from "express";
import type { z } from "zod";
import { expressPath, successStatus, type Actor, type RouteDef } from "@burnbox/contracts";
import { internalContextOf } from "../security/internal-auth";
import { errors } from "../core/errors";
import { parseQueryValue, parseWith } from "./http";

/** Who is calling and from where: the second argument of every use case. */
export interface RequestCtx<A extends Actor | null = Actor> {
  actor: A;
  ip: string;
  requestId: string;
  userAgent: string;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type RequestPart<R extends RouteDef, K extends "params" | "query" | "body"> = R["request"] extends { [P in K]: infer S }
  ? Parsed<S>
  : Record<string, never>;

/** What a handler receives: the request already validated against its contract. */
export interface HandlerInput<R extends RouteDef> {
  params: RequestPart<R, "params">;
  query: RequestPart<R, "query">;
  body: RequestPart<R, "body">;
  /** Public routes may be called without a credential; every other route has an actor. */
  ctx: RequestCtx<R["auth"] extends "public" ? Actor | null : Actor>;
  /** For the few handlers that set cookies or headers or stream; most never touch it. */
  http: { req: Request; res: Response };
}

/** A reply with a status other than the route's default 2xx (e.g. 202 vs 200 on one route). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
  ) {}
}
export const reply = (status: number, body?: unknown): Reply => new Reply(status, body);

/**
 * Returns the JSON body (sent with the route's lowest 2xx), `undefined` for an empty answer
 * (204 routes), a `Reply`, or nothing after writing the response itself through `http.res`.
 */
export type Handler<R extends RouteDef> = (input: HandlerInput<R>) => Promise<unknown>;

/**
 * One handler per operation of `routes`, keyed by operationId: a route without a handler, or a
 * handler without a route, is a type error.
 */
export type Handlers<T extends readonly RouteDef[]> = { [R in T[number] as R["operationId"]]: Handler<R> };

function ctxOf(req: Request, needsActor: boolean): RequestCtx<Actor | null> {
  const internal = internalContextOf(req);
  const actor = internal?.actor ?? null;
  if (needsActor && !actor) throw errors.unauthenticated();
  return {
    actor,
    ip: internal?.client_ip ?? req.socket.remoteAddress ?? "",
    requestId: internal?.request_id ?? "",
    userAgent: req.header("user-agent") ?? "",
  };
}

/**
 * Mounts a service's handlers from its contract: path, method, parameter parsing and body and
 * query validation all come from the route definitions, never written a second time.
 */
export function bindRoutes<const T extends readonly RouteDef[]>(routes: T, handlers: NoInfer<Handlers<T>>): Router {
  const router = Router();
  const table = handlers as unknown as Record<string, Handler<RouteDef>>;
  for (const route of routes) {
    const handler = table[route.operationId];
    if (!handler) throw new Error(`no handler for ${route.operationId}`);
    const status = successStatus(route);
    const schemas = route.request ?? {};
    router[route.method](expressPath(route.path), async (req: Request, res: Response) => {
      const ctx = ctxOf(req, route.auth !== "public"); // who asks comes before what is asked: 401 before 400
      const input = {
        params: schemas.params ? parseWith(schemas.params, req.params, "path") : {},
        query: schemas.query ? parseQueryValue(schemas.query, req.query) : {},
        body: schemas.body ? parseWith(schemas.body, req.body ?? {}, "body") : {},
        ctx,
        http: { req, res },
      } as HandlerInput<RouteDef>;
      const out = await handler(input);
      if (res.headersSent) return;
      if (out instanceof Reply) {
        if (out.body === undefined) res.status(out.status).end();
        else res.status(out.status).json(out.body);
        return;
      }
      if (out === undefined) res.status(status).end();
      else res.status(status).json(out);
    });
  }
  return router;
}
