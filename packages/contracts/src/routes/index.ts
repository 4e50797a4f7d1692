import { apiGatewayServiceRoutes } from "../api-gateway";
import { identityServiceRoutes } from "../identity";
import { inboxServiceRoutes } from "../inbox";
import { realtimeGatewayServiceRoutes, wsStreamRoutes } from "../realtime-gateway";
import { tenancyServiceRoutes } from "../tenancy";
import { webhookDispatcherServiceRoutes } from "../webhook-dispatcher";
import type { RouteDef, WsRouteDef } from "./route";

export * from "./route";

/** Every implemented operation: the gateway's route table and the OpenAPI document both come from this list. */
export const ROUTES: readonly RouteDef[] = [
  ...identityServiceRoutes,
  ...tenancyServiceRoutes,
  ...inboxServiceRoutes,
  ...webhookDispatcherServiceRoutes,
  ...realtimeGatewayServiceRoutes,
  ...apiGatewayServiceRoutes,
];

/** The WebSocket streams: in the OpenAPI document beside ROUTES; their upgrades go to realtime-gateway. */
export const WS_ROUTES: readonly WsRouteDef[] = wsStreamRoutes;
