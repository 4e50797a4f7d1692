import { ADMIN_STATS_FRAME } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { StreamSocket } from "../../adapters/ws-hub";
import type { RealtimeDeps } from "../deps";
import { ADMIN_STATS_KEY } from "./admin-stats-feed";

/**
 * Admits a system administrator to `/ws/admin-stats`: the ticket stands for the credential it
 * was taken with, and one taken with an API key never opens it (a key never carries system-admin
 * rights). The figures are fetched (or reused) before the upgrade, so a refused caller or a
 * silent tenancy gets a plain HTTP error and never a socket; the first frame goes at once.
 */
export async function openAdminStatsStream(deps: RealtimeDeps, input: { ticket: string }): Promise<(socket: StreamSocket) => void> {
  const actor = await deps.tickets.redeem(input.ticket);
  if (!actor) throw errors.unauthenticated("invalid or expired ticket");
  if (actor.api_key) throw errors.forbidden("insufficient scope");
  if (!actor.is_system_admin) throw errors.forbidden("system admin required");
  const data = await deps.adminStats.feed.current(deps.adminStats.intervalMs);
  return (socket) => {
    deps.adminStats.hub.add(ADMIN_STATS_KEY, socket);
    socket.send(JSON.stringify({ type: ADMIN_STATS_FRAME, data }));
  };
}
