import type { UnitOfWork } from "@burnbox/service-kit/data";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { NotificationSocketRepository } from "../data/notification-socket.repository";
import type { RealtimeHot, RealtimeRepos } from "../data/repositories";
import type { WsTicketRepository } from "../data/ws-ticket.repository";
import type { AdminStatsFeed } from "./admin-stats/admin-stats-feed";
import type { Hub } from "../adapters/ws-hub";
import type { EmailReplaySource } from "./inbox-streams/email-replay";
import type { LiveSource } from "./live-source";

/** What every realtime use case receives: explicit dependencies, no globals. */
export interface RealtimeDeps {
  tickets: WsTicketRepository;
  /** The sockets of this replica, by inbox. */
  hub: Hub;
  /** The notification sockets of this replica, by user. */
  notificationHub: Hub;
  /** Leases of notification sockets across replicas (Redis), and those this replica holds (socket id -> user). */
  notificationSockets: { repo: NotificationSocketRepository; leases: Map<string, string>; leaseMs: number };
  /** Repositories for reads, `write(change)` for a change with its audit entries. */
  data: UnitOfWork<RealtimeRepos, RealtimeHot>;
  /** A resumed inbox stream's missed `email.received` events (the events stream, bounded by `ws.replay_*`). */
  replay: EmailReplaySource;
  /** The inboxes whose live mail this replica receives (`messaging/live-inboxes.ts`). */
  live: LiveSource;
  /** The users whose stored notifications this replica is told of (`messaging/notifications.consumer.ts`). */
  liveNotifications: LiveSource;
  logger: Logger;
  nc: NatsConnection;
  namespace: string;
  /** `/ws/admin-stats`: this replica's admin sockets and the figures they share, sent every `intervalMs`. */
  adminStats: { hub: Hub; feed: AdminStatsFeed; intervalMs: number };
}
