import { realtimeGatewayServiceRoutes } from "@burnbox/contracts";
import { bindRoutes, serveApi, type Infra } from "@burnbox/service-kit";
import type { RealtimeConfig } from "./config";
import { WsTicketRepository } from "./data/ws-ticket.repository";
import type { RealtimeDeps } from "./domain/deps";
import { Hub } from "./domain/hub";
import { inboxStreamUpgrades } from "./http/inbox-stream.upgrade";
import { wsTicketsHandlers } from "./http/ws-tickets.handlers";
import { startFanout } from "./messaging/fanout.consumer";
import { startHeartbeat } from "./workers/heartbeat.worker";

export interface RunningService {
  port: number;
  hub: Hub;
  stop(): Promise<void>;
}

/** WebSocket tickets and inbox streams, fed by this replica's own event consumers. */
export async function startService(config: RealtimeConfig, infra: Infra): Promise<RunningService> {
  if (!infra.redis) throw new Error("realtime-gateway needs Redis");
  const hub = new Hub(infra.logger, { maxBufferedBytes: config.ws.max_buffered_bytes });
  const deps: RealtimeDeps = {
    tickets: new WsTicketRepository(infra.redis, config.redis.key_prefix),
    hub,
    nc: infra.nc,
    namespace: config.nats.namespace,
  };
  const heartbeat = startHeartbeat(hub, config.ws.ping_interval_ms, infra.logger);
  const fanout = await startFanout(deps, infra.logger);
  const upgrades = inboxStreamUpgrades(deps, infra.logger);
  const api = bindRoutes(realtimeGatewayServiceRoutes, { ...wsTicketsHandlers(deps) });
  const server = await serveApi({ config, infra, routers: [api] });
  server.server.on("upgrade", upgrades.handler);
  return {
    port: server.port,
    hub,
    stop: async () => {
      await heartbeat.stop();
      hub.close();
      await upgrades.close();
      await server.close();
      await fanout.stop();
    },
  };
}
