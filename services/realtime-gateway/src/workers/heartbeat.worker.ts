import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { Hub } from "../adapters/ws-hub";

/** Pings this replica's sockets at a steady pace (no jitter: each replica pings only its own peers). */
export function startHeartbeat(hub: Hub, intervalMs: number, logger: Logger): PeriodicTask {
  return startPeriodicTask({ name: "ws-heartbeat", intervalMs, jitter: 0, logger, run: () => hub.heartbeat() });
}
