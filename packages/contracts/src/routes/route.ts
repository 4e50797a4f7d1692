import type { z } from "../zod";
import type { TeamPermission } from "../permissions";

export const SERVICES = ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway", "api-gateway"] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Who may call a route:
 * - public: no credential needed (a credential, when sent, is still validated);
 * - user: a JWT or an API key (the key needs `scope`; a route without one refuses keys: 403 insufficient scope);
 * - authenticated: a JWT or an API key, no scope needed (e.g. GET /auth/me);
 * - user_only: a JWT only; API keys are refused (account self-service);
 * - system_admin: a JWT of a system admin; API keys are refused.
 */
export type RouteAuth = "public" | "user" | "authenticated" | "user_only" | "system_admin";

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
}

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface RouteDef {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path relative to /api/v1, e.g. `/orgs/{orgId}/teams/{teamId}`. */
  path: string;
  service: ServiceName;
  auth: RouteAuth;
  /** The team permission an API key must hold in its scopes to call this route. */
  scope?: TeamPermission;
  tag: string;
  summary: string;
  /** Longer prose for the OpenAPI operation (put before the API-key scope note). */
  description?: string;
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: z.ZodType;
  };
  responses: Record<number, RouteResponse>;
  /** Vendor extensions copied into the OpenAPI operation (e.g. `x-burnbox-extension`). */
  extensions?: Record<`x-${string}`, unknown>;
  /**
   * A long poll: the longest the service may hold the request before it answers (the wait's
   * `timeout`). The gateway's forwarding timeout for this route is this plus `services.timeout_ms`.
   */
  holdsUpToMs?: number;
}

/**
 * A WebSocket stream: a `GET` upgrade admitted by the `ticket` query parameter, not a REST
 * operation. It is in the OpenAPI document (`101` with its frames' schema, then the refusals
 * answered before the upgrade), not in the route table the gateway forwards and services bind.
 */
export interface WsRouteDef {
  operationId: string;
  /** OpenAPI-style path relative to /api/v1. */
  path: string;
  service: ServiceName;
  tag: string;
  summary: string;
  request: { params?: z.ZodObject; query: z.ZodObject };
  /** What every frame the server sends looks like (spec 6.5: `{type, data}`). */
  frame: z.ZodType;
  /** The HTTP answers given instead of the upgrade. */
  refusals: Record<number, RouteResponse>;
}

/** A route as written in a contract file: service (and usually tag) come from the file's header. */
export type RouteSpec = Omit<RouteDef, "service" | "tag"> & { tag?: string };

export type DefinedRoute<T extends RouteSpec, S extends ServiceName> = Omit<T, "tag"> & { service: S; tag: string };

/**
 * One contract file's routes: `service` and `tag` are stated once for the file (a route may
 * override the tag). The literal types are kept, so a service's handler record can be checked
 * against exactly these operation ids and schemas.
 */
export function defineRoutes<const S extends ServiceName, const T extends readonly RouteSpec[]>(
  header: { service: S; tag: string },
  routes: T,
): { readonly [K in keyof T]: DefinedRoute<T[K], S> } {
  return routes.map((r) => ({ ...r, service: header.service, tag: r.tag ?? header.tag })) as never;
}

/** `/orgs/{orgId}` -> `/orgs/:orgId` (Express 5 / path-to-regexp syntax). */
export function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

/** The status a route answers on success: its lowest 2xx. */
export function successStatus(route: Pick<RouteDef, "responses">): number {
  const ok = Object.keys(route.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return ok[0] ?? 200;
}

/** One route of a list by its operation id, typed as that route (e.g. to reuse its path or schemas). */
export function routeOf<const T extends readonly RouteDef[], Id extends T[number]["operationId"]>(
  routes: T,
  operationId: Id,
): Extract<T[number], { operationId: Id }> {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route as Extract<T[number], { operationId: Id }>;
}
