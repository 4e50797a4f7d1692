import { errors } from "@burnbox/service-kit/runtime";
import type { StreamSocket } from "../../adapters/ws-hub";
import type { RealtimeDeps } from "../deps";
import { checkInboxAccess } from "./check-inbox-access";

/**
 * Admits a browser to an inbox's stream. The caller is whoever holds the ticket (redeemed once),
 * not a gateway context: the upgrade carries none. Resolves, once the inbox access is checked,
 * with what attaches the upgraded socket, so a refused caller gets a plain HTTP error and never
 * a socket.
 */
export async function openInboxStream(
  deps: RealtimeDeps,
  input: { inboxId: string; ticket: string },
): Promise<(socket: StreamSocket) => void> {
  const actor = await deps.tickets.redeem(input.ticket);
  if (!actor) throw errors.unauthenticated("invalid or expired ticket");
  await checkInboxAccess(deps, actor, input.inboxId);
  return (socket) => deps.hub.add(input.inboxId, socket);
}
