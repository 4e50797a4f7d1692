import { EventType, realtimeGatewayServiceRoutes } from "@burnbox/contracts";
import { createUnitOfWork } from "@burnbox/service-kit/data";
import { bindRoutes, serveApi } from "@burnbox/service-kit/http";
import { startConsumers, startOutboxRelay } from "@burnbox/service-kit/messaging";
import { StopList, type Infra } from "@burnbox/service-kit/runtime";
import type { RealtimeConfig } from "./config";
import { NotificationSocketRepository } from "./data/notification-socket.repository";
import { createPrisma, type Db } from "./data/prisma";
import { hotRepositories, repositories } from "./data/repositories";
import { WsTicketRepository } from "./data/ws-ticket.repository";
import { AdminStatsFeed, fetchAdminStatsOverNats } from "./domain/admin-stats/admin-stats-feed";
import type { RealtimeDeps } from "./domain/deps";
import { Hub } from "./adapters/ws-hub";
import { inboxStreamUpgrades } from "./http/inbox-stream.upgrade";
import { notificationsHandlers } from "./http/notifications.handlers";
import { wsTicketsHandlers } from "./http/ws-tickets.handlers";
import { jetStreamEmailReplay } from "./messaging/email-replay";
import { startFanout } from "./messaging/fanout.consumer";
import { liveInboxes, startLiveCatchUp } from "./messaging/live-inboxes";
import type { LiveSubjects } from "./messaging/live-subjects";
import { pushReceivedEmail } from "./domain/inbox-streams/push-received-email.use-case";
import {
  deliverNotificationPush,
  liveNotifications,
  startLegacyNotificationPush,
  startNotificationConsumers,
} from "./messaging/notifications.consumer";
import { startAdminStatsPush } from "./workers/admin-stats.worker";
import { startHeartbeat } from "./workers/heartbeat.worker";
import { startNotificationLeaseRenewal } from "./workers/notification-lease.worker";

export interface RunningService {
  port: number;
  hub: Hub;
  notificationHub: Hub;
  /** The inboxes whose live mail this replica is subscribed to. */
  live: LiveSubjects;
  liveNotifications: LiveSubjects;
  deps: RealtimeDeps;
  /** The database client, for tests that look at rows directly. */
  db: Db;
  stop(): Promise<void>;
}

/** WebSocket tickets, inbox streams and notifications (stored once, pushed by every replica). */
export async function startService(config: RealtimeConfig, infra: Infra): Promise<RunningService> {
  if (!infra.redis) throw new Error("realtime-gateway needs Redis");
  if (!infra.pool) throw new Error("realtime-gateway needs its database");
  const { logger } = infra;
  // what starts is added as it starts; stop() stops it in the reverse order (the pushes to sockets
  // first, then the sockets and the server, the consumers, the client last)
  const stops = new StopList();
  const db = createPrisma(infra.pool);
  stops.addStep(() => db.$disconnect());
  const relay = stops.add(startOutboxRelay({ pool: infra.pool, js: infra.js, logger }));
  const maxBufferedBytes = config.ws.max_buffered_bytes;
  // an inbox's live subscription goes with its last socket here
  const hub = new Hub(logger, { maxBufferedBytes, stream: "inbox", onEmpty: (inboxId) => live.released(inboxId) });
  const live = liveInboxes({ nc: infra.nc, namespace: config.nats.namespace, hub, logger }, (event) => {
    if (event.type === EventType.emailReceived) pushReceivedEmail(deps, event);
  });
  // and a user's notification subscription with their last notification socket here
  const notificationHub = new Hub(logger, {
    maxBufferedBytes,
    stream: "notifications",
    onEmpty: (userId) => notifications.released(userId),
  });
  const notifications = liveNotifications({ nc: infra.nc, namespace: config.nats.namespace, notificationHub, logger }, (raw) =>
    deliverNotificationPush(deps, logger, raw),
  );
  const adminStatsHub = new Hub(logger, { maxBufferedBytes, stream: "admin_stats" });
  const deps: RealtimeDeps = {
    tickets: new WsTicketRepository(infra.redis, config.redis.key_prefix),
    hub,
    notificationHub,
    notificationSockets: {
      repo: new NotificationSocketRepository(infra.redis, config.redis.key_prefix),
      leases: new Map(),
      leaseMs: config.ws.notification_lease_ms,
    },
    data: createUnitOfWork({
      client: db,
      transaction: (fn) => db.$transaction(fn),
      repositories,
      hot: hotRepositories(infra.pool),
      relay,
      namespace: config.nats.namespace,
    }),
    replay: jetStreamEmailReplay(infra.nc, config.nats.namespace, {
      maxAgeMs: config.ws.replay_max_age_ms,
      maxEvents: config.ws.replay_max_events,
    }),
    live,
    liveNotifications: notifications,
    logger,
    nc: infra.nc,
    namespace: config.nats.namespace,
    adminStats: {
      hub: adminStatsHub,
      feed: new AdminStatsFeed(fetchAdminStatsOverNats(infra.nc, config.nats.namespace)),
      intervalMs: config.ws.admin_stats_interval_ms,
    },
  };
  stops.add(live);
  stops.add(notifications);
  stops.add(startLegacyNotificationPush(deps, logger));
  stops.add(await startConsumers(deps, logger, [startFanout, startNotificationConsumers]));
  stops.add(startLiveCatchUp(deps, logger));
  const upgrades = inboxStreamUpgrades(deps, logger);
  const api = bindRoutes(realtimeGatewayServiceRoutes, { ...wsTicketsHandlers(deps), ...notificationsHandlers(deps) });
  const server = await serveApi({ config, infra, routers: [api] });
  stops.addStep(() => server.close());
  server.server.on("upgrade", upgrades.handler);
  // added after the server, so stopped before it (last added, first stopped): every socket, then the upgrades under way
  stops.addStep(() => upgrades.close());
  stops.addStep(() => {
    for (const h of [adminStatsHub, hub, notificationHub]) h.close();
  });
  // what keeps the sockets alive and fed: started with the server up, stopped first
  stops.add([hub, notificationHub, adminStatsHub].map((h) => startHeartbeat(h, config.ws.ping_interval_ms, logger)));
  stops.add(startNotificationLeaseRenewal(deps, logger));
  stops.add(startAdminStatsPush(deps, logger));
  // once the endpoints have dropped this replica (shutdown.drain_delay), every stream is told
  // "going away" (1001) and reconnects to another replica, rather than being cut at exit
  infra.drain.onDrain(() => {
    for (const h of [hub, notificationHub, adminStatsHub]) h.close();
  });
  return {
    port: server.port,
    hub,
    notificationHub,
    live,
    liveNotifications: notifications,
    deps,
    db,
    stop: () => stops.stop(),
  };
}
