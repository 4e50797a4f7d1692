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

export interface RouteDef {
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI-style path relative to /api/v1, e.g. `/orgs/{orgId}/teams/{teamId}`. */
  path: string;
  service: ServiceName;
  auth: RouteAuth;
  /** The team permission an API key must hold in its scopes to call this route. */
  scope?: TeamPermission;
  tag: string;
  summary: string;
  request?: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: z.ZodType;
  };
  responses: Record<number, RouteResponse>;
}

export const defineRoutes = <const T extends readonly RouteDef[]>(routes: T): T => routes;

/** `/orgs/{orgId}` -> `/orgs/:orgId` (Express 5 / path-to-regexp syntax). */
export function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}
