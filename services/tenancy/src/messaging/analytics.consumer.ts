import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { CountedEmail } from "../domain/analytics/counted-email";
import { countEmailReceived } from "../domain/analytics/count-email-received.use-case";
import { countInboxCreated } from "../domain/analytics/count-inbox-created.use-case";
import { countInboxGone } from "../domain/analytics/count-inbox-gone.use-case";
import { forgetDeletedTenant } from "../domain/analytics/forget-deleted-tenant.use-case";
import { moveTransferredTeam } from "../domain/analytics/move-transferred-team.use-case";
import type { TenancyDeps } from "../domain/deps";

/**
 * The analytics aggregates, kept from events by one durable consumer per event type (shared by
 * every replica, so N replicas never count N times; idempotent on the event id, so a
 * redelivery never counts twice).
 */
export async function startAnalyticsConsumers(deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  const durable = (name: string) => `tenancy-analytics-${name}`;
  return Promise.all([
    startConsumer({
      nc,
      namespace,
      durable: durable("email-received"),
      eventType: EventType.emailReceived,
      logger,
      // the counts linger to go several to a statement (COUNT_LINGER_MS): enough in flight to fill one
      concurrency: 64,
      schema: CountedEmail,
      handler: (event) => countEmailReceived(deps, durable("email-received"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("inbox-created"),
      eventType: EventType.inboxCreated,
      logger,
      handler: (event) => countInboxCreated(deps, durable("inbox-created"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("inbox-expired"),
      eventType: EventType.inboxExpired,
      logger,
      handler: (event) => countInboxGone(deps, durable("inbox-expired"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("inbox-deleted"),
      eventType: EventType.inboxDeleted,
      logger,
      handler: (event) => countInboxGone(deps, durable("inbox-deleted"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("org-deleted"),
      eventType: EventType.orgDeleted,
      logger,
      handler: (event) => forgetDeletedTenant(deps, durable("org-deleted"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("team-deleted"),
      eventType: EventType.teamDeleted,
      logger,
      handler: (event) => forgetDeletedTenant(deps, durable("team-deleted"), event),
    }),
    startConsumer({
      nc,
      namespace,
      durable: durable("team-transferred"),
      eventType: EventType.teamTransferred,
      logger,
      handler: (event) => moveTransferredTeam(deps, durable("team-transferred"), event),
    }),
  ]);
}
