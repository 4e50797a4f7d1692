import { apiKeyRoutes } from "./apikeys";
import { gatewayRoutes } from "./gateway";
import { identityRoutes } from "./identity";
import { inboxRoutes } from "./inbox";
import { realtimeRoutes } from "./realtime";
import type { RouteDef } from "./route";
import { tenancyRoutes } from "./tenancy";
import { webhookRoutes } from "./webhooks";

export * from "./common";
export * from "./route";
export * from "./identity";
export * from "./apikeys";
export * from "./tenancy";
export * from "./inbox";
export * from "./webhooks";
export * from "./realtime";
export * from "./gateway";

/** Every implemented operation: the gateway's route table and the OpenAPI document both come from this list. */
export const ROUTES: readonly RouteDef[] = [
  ...identityRoutes,
  ...apiKeyRoutes,
  ...tenancyRoutes,
  ...inboxRoutes,
  ...webhookRoutes,
  ...realtimeRoutes,
  ...gatewayRoutes,
];

/** Look up one route by operation id, for services to reuse its request schemas. */
export function routeById(operationId: string): RouteDef {
  const r = ROUTES.find((x) => x.operationId === operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}
