import { randomUUID } from "node:crypto";
import { MAX_NOTIFICATION_SOCKETS_PER_USER, NOTIFICATION_SOCKET_LIMIT_CLOSE } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { StreamSocket } from "../../adapters/ws-hub";
import type { RealtimeDeps } from "../deps";

/**
 * Admits a user to their notification stream: whoever holds the ticket (redeemed once) is the
 * user. The limit counts the user's sockets on every replica (leases in Redis; this replica's own
 * count if Redis fails). A socket beyond it is upgraded and closed at once with 4429, so the
 * client sees why. The user's notifications reach this replica before the upgrade
 * (`deps.liveNotifications`), so none stored once the socket is open is missed.
 */
export async function openNotificationStream(deps: RealtimeDeps, input: { ticket: string }): Promise<(socket: StreamSocket) => void> {
  const actor = await deps.tickets.redeem(input.ticket);
  if (!actor) throw errors.unauthenticated("invalid or expired ticket");
  // notifications belong to the user: no API-key scope stands for them (as on the REST routes)
  if (actor.api_key) throw errors.forbidden("insufficient scope");
  const userId = actor.user_id;
  const { leases } = deps.notificationSockets;
  const attached = await deps.liveNotifications.watch(userId);
  return (socket) =>
    void (async () => {
      const socketId = randomUUID();
      let admitted: boolean;
      try {
        admitted = await deps.notificationSockets.repo.claim(userId, socketId, {
          now: Date.now(),
          leaseMs: deps.notificationSockets.leaseMs,
          limit: MAX_NOTIFICATION_SOCKETS_PER_USER,
        });
      } catch {
        admitted = deps.notificationHub.count(userId) < MAX_NOTIFICATION_SOCKETS_PER_USER;
      }
      if (!admitted) {
        attached();
        socket.close(NOTIFICATION_SOCKET_LIMIT_CLOSE, `at most ${MAX_NOTIFICATION_SOCKETS_PER_USER} notification sockets per user`);
        return;
      }
      const release = () => {
        leases.delete(socketId);
        deps.notificationSockets.repo.release(userId, socketId).catch(() => undefined); // else it lapses
      };
      if (socket.readyState !== socket.OPEN) {
        attached();
        return release(); // the client left while we asked
      }
      leases.set(socketId, userId);
      socket.once("close", release);
      deps.notificationHub.add(userId, socket);
      attached();
    })();
}
