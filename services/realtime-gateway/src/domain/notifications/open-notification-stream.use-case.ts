import type { WebSocket } from "ws";
import { MAX_NOTIFICATION_SOCKETS_PER_USER, NOTIFICATION_SOCKET_LIMIT_CLOSE } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { RealtimeDeps } from "../deps";

/**
 * Admits a user to their notification stream: whoever holds the ticket (redeemed once) is the
 * user. A socket beyond the user's limit is accepted and closed at once with 4429, so the client
 * sees why.
 */
export async function openNotificationStream(deps: RealtimeDeps, input: { ticket: string }): Promise<(socket: WebSocket) => void> {
  const actor = await deps.tickets.redeem(input.ticket);
  if (!actor) throw errors.unauthenticated("invalid or expired ticket");
  return (socket) => {
    if (deps.notificationHub.count(actor.user_id) >= MAX_NOTIFICATION_SOCKETS_PER_USER) {
      socket.close(NOTIFICATION_SOCKET_LIMIT_CLOSE, `at most ${MAX_NOTIFICATION_SOCKETS_PER_USER} notification sockets per user`);
      return;
    }
    deps.notificationHub.add(actor.user_id, socket);
  };
}
