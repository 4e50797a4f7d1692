import { wsTicketsRoutes } from "./ws-tickets.routes";

export * from "./ws-tickets.schemas";

export const realtimeRoutes = wsTicketsRoutes;

/** Everything the realtime gateway serves over HTTP (the WebSocket upgrade itself is not a REST route). */
export const realtimeGatewayServiceRoutes = realtimeRoutes;
export * from "./ws-tickets.routes";
