import { notificationsRoutes } from "./notifications.routes";
import { wsTicketsRoutes } from "./ws-tickets.routes";

export * from "./notifications.schemas";
export * from "./ws-tickets.schemas";
export * from "./admin-stats.schemas";
export * from "./ws-streams.schemas";

export const realtimeRoutes = [...wsTicketsRoutes, ...notificationsRoutes] as const;

/** Everything the realtime gateway serves over HTTP (its WebSocket upgrades are `wsStreamRoutes`: documented, not bound as REST). */
export const realtimeGatewayServiceRoutes = realtimeRoutes;
export * from "./notifications.routes";
export * from "./ws-tickets.routes";
export * from "./ws-streams.routes";
