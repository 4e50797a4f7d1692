import { ADMIN_STATS_FRAME } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";
import { ADMIN_STATS_KEY } from "./admin-stats-feed";

/**
 * One tick of the admin-stats stream on this replica: nothing when no admin is watching, else one
 * set of figures (fetched unless a socket that opened within the last half interval already did)
 * sent to every admin socket.
 */
export async function pushAdminStats(deps: RealtimeDeps): Promise<void> {
  const { hub, feed, intervalMs } = deps.adminStats;
  if (hub.count(ADMIN_STATS_KEY) === 0) return;
  const data = await feed.current(intervalMs / 2);
  hub.send(ADMIN_STATS_KEY, { type: ADMIN_STATS_FRAME, data });
}
