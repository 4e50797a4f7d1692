import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IssuedTicket } from "../../data/ws-ticket.repository";
import type { RealtimeDeps } from "../deps";

/**
 * A ticket that stands for the caller when a client opens a WebSocket. It keeps the credential it
 * was taken with (an API key with its team and scopes), and each stream decides with it: the
 * inbox stream needs the key's `team.emails.view`, notifications and admin-stats refuse keys.
 */
export async function createWsTicket(deps: RealtimeDeps, ctx: RequestCtx): Promise<IssuedTicket> {
  return await deps.tickets.issue(ctx.actor);
}
