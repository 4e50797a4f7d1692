import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { WsTicket } from "./ws-tickets.schemas";

export const wsTicketsRoutes = defineRoutes({ service: "realtime-gateway", tag: "WebSocket" }, [
  {
    operationId: "createWsTicket",
    method: "post",
    path: "/ws/ticket",
    // a ticket carries the credential it was taken with: a key's keeps its scopes and never opens admin-stats
    auth: "authenticated",
    summary: "Issue a single-use WebSocket ticket (30 s) standing for the caller's credential (an API key keeps its scopes)",
    responses: { 201: { description: "Ticket", schema: WsTicket }, 401: errorResponses[401] },
  },
] as const);
