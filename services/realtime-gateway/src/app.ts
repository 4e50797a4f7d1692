import { serveApi, type Infra } from "@burnbox/service-kit";
import type { RealtimeConfig } from "./config";
import { Hub } from "./domain/hub";
import { inboxUpgradeHandler, ticketRouter } from "./http/ws.routes";
import { startFanout } from "./messaging/fanout.consumer";

export interface RunningService {
  port: number;
  hub: Hub;
  stop(): Promise<void>;
}

/** WebSocket tickets and inbox streams, fed by this replica's own event consumers. */
export async function startService(config: RealtimeConfig, infra: Infra): Promise<RunningService> {
  if (!infra.redis) throw new Error("realtime-gateway needs Redis");
  const redis = infra.redis;
  const hub = new Hub(infra.logger, { pingIntervalMs: config.ws.ping_interval_ms, maxBufferedBytes: config.ws.max_buffered_bytes });
  const fanout = await startFanout(infra.nc, config.nats.namespace, hub, infra.logger);
  const upgrades = inboxUpgradeHandler({
    redis,
    prefix: config.redis.key_prefix,
    nc: infra.nc,
    namespace: config.nats.namespace,
    hub,
    logger: infra.logger,
  });
  const server = await serveApi({ config, infra, routers: [ticketRouter(redis, config.redis.key_prefix)] });
  server.server.on("upgrade", upgrades.handler);
  return {
    port: server.port,
    hub,
    stop: async () => {
      hub.close();
      await upgrades.close();
      await server.close();
      await fanout.stop();
    },
  };
}
