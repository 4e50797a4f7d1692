import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { countInbox } from "../domain/inbox-counts/count-inbox.use-case";

const CREATED = "tenancy-inbox-created";
const EXPIRED = "tenancy-inbox-expired";
const DELETED = "tenancy-inbox-deleted";

/** Keeps the teams' and domains' inbox counters current from the inbox service's events (created, expired, deleted by a user). */
export async function startInboxCountConsumers(deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  return Promise.all([
    startConsumer({
      nc,
      namespace,
      durable: CREATED,
      eventType: EventType.inboxCreated,
      logger,
      handler: (event) =>
        countInbox(deps, {
          consumer: CREATED,
          eventId: event.id,
          teamId: event.data.team_id,
          fullAddress: event.data.full_address,
          delta: 1,
        }),
    }),
    startConsumer({
      nc,
      namespace,
      durable: EXPIRED,
      eventType: EventType.inboxExpired,
      logger,
      handler: (event) =>
        countInbox(deps, {
          consumer: EXPIRED,
          eventId: event.id,
          teamId: event.data.team_id,
          fullAddress: event.data.full_address,
          delta: -1,
        }),
    }),
    startConsumer({
      nc,
      namespace,
      durable: DELETED,
      eventType: EventType.inboxDeleted,
      logger,
      // a deactivated inbox (its domain moved away) was taken off the counters by the transfer already
      handler: (event) =>
        event.data.was_active === false
          ? Promise.resolve()
          : countInbox(deps, {
              consumer: DELETED,
              eventId: event.id,
              teamId: event.data.team_id,
              fullAddress: event.data.full_address,
              delta: -1,
            }),
    }),
  ]);
}
