import type { Actor, RouteDef, ServiceName } from "@burnbox/contracts";
import { ROUTES } from "@burnbox/contracts";
import { errors, type AppError } from "@burnbox/service-kit/runtime";
import type { UpstreamPool } from "./upstreams";

export type UpstreamService = Exclude<ServiceName, "api-gateway">;
export type ForwardedRoute = RouteDef & { service: UpstreamService };
/** The replicas of each upstream service (`services.<name>_url`, one URL or a comma-separated list). */
export type ServiceUrls = Record<UpstreamService, UpstreamPool>;

/** The routes the gateway forwards (its own docs routes are served in place). */
export const FORWARDED_ROUTES: readonly ForwardedRoute[] = ROUTES.filter((r): r is ForwardedRoute => r.service !== "api-gateway");

/**
 * What the route's auth kind says about this caller. API keys need the route's scope; routes
 * without one (org-level, account self-service, admin) refuse keys with 403 `insufficient scope`.
 */
export function authorizeRoute(route: RouteDef, actor: Actor | null): AppError | null {
  switch (route.auth) {
    case "public":
      return null;
    case "authenticated":
      return actor ? null : errors.unauthenticated();
    case "user":
      if (!actor) return errors.unauthenticated();
      if (actor.api_key && (!route.scope || !actor.api_key.scopes.includes(route.scope))) return errors.forbidden("insufficient scope");
      return null;
    case "user_only":
      if (!actor) return errors.unauthenticated();
      return actor.api_key ? errors.forbidden("insufficient scope") : null;
    case "system_admin":
      if (!actor) return errors.unauthenticated();
      if (actor.api_key) return errors.forbidden("insufficient scope");
      return actor.is_system_admin ? null : errors.forbidden("system admin required");
  }
}
