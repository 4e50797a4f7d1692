import { z } from "../zod";
import { defineRoutes } from "./route";

export const WS_TICKET_TTL_SECONDS = 30;
export const WsTicket = z.object({ ticket: z.string().uuid(), expires_in: z.number().int() }).openapi("WsTicket");

/** Frames pushed on WebSocket streams (spec 6.5). */
export const WsFrame = z.object({ type: z.string(), data: z.unknown() });

export const realtimeRoutes = defineRoutes([
  {
    operationId: "createWsTicket",
    method: "post",
    path: "/ws/ticket",
    service: "realtime-gateway",
    auth: "user_only",
    tag: "WebSocket",
    summary: "Issue a single-use WebSocket ticket (30 s)",
    responses: { 201: { description: "Ticket", schema: WsTicket }, 401: { description: "Missing or invalid credentials" } },
  },
] as const);
