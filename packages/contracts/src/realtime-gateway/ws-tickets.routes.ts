import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { WsTicket } from "./ws-tickets.schemas";

export const wsTicketsRoutes = defineRoutes({ service: "realtime-gateway", tag: "WebSocket" }, [
  {
    operationId: "createWsTicket",
    method: "post",
    path: "/ws/ticket",
    auth: "user_only",
    summary: "Issue a single-use WebSocket ticket (30 s)",
    responses: { 201: { description: "Ticket", schema: WsTicket }, 401: errorResponses[401] },
  },
] as const);
