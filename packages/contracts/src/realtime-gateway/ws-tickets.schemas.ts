import { z } from "../zod";

export const WS_TICKET_TTL_SECONDS = 30;
export const WsTicket = z.object({ ticket: z.string().uuid(), expires_in: z.number().int() }).openapi("WsTicket");

/** Frames pushed on WebSocket streams (spec 6.5). */
export const WsFrame = z.object({ type: z.string(), data: z.unknown() });
