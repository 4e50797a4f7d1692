import { errors, type RequestCtx } from "@burnbox/service-kit";
import type { IssuedTicket } from "../../data/ws-ticket.repository";
import type { RealtimeDeps } from "../deps";

/** A ticket that stands for the caller when a browser opens a WebSocket; streams are for users, never API keys. */
export async function createWsTicket(deps: RealtimeDeps, ctx: RequestCtx): Promise<IssuedTicket> {
  if (ctx.actor.api_key) throw errors.forbidden("insufficient scope");
  return await deps.tickets.issue(ctx.actor);
}
