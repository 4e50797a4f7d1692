import { EventType } from "@burnbox/contracts";
import { startConsumer, type Logger, type NatsConnection, type RunningConsumer } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";
import { deactivateDomainInboxes } from "../domain/tenants/deactivate-domain-inboxes.use-case";
import { moveTeamInboxes } from "../domain/tenants/move-team-inboxes.use-case";
import { removeTenantInboxes } from "../domain/tenants/remove-tenant-inboxes.use-case";

const ORG_DELETED = "inbox-org-deleted";
const TEAM_DELETED = "inbox-team-deleted";
const TEAM_TRANSFERRED = "inbox-team-transferred";
const DOMAIN_TRANSFERRED = "inbox-domain-transferred";

/** Tenancy's removals and moves, one durable consumer each (shared by replicas), idempotent on the event id. */
export async function startTenancyConsumers(nc: NatsConnection, deps: InboxDeps, logger: Logger): Promise<RunningConsumer[]> {
  const namespace = deps.config.nats.namespace;
  // a large org takes a while: the server must not redeliver it to another replica meanwhile
  const ackWaitMs = 5 * 60_000;
  return Promise.all([
    startConsumer({
      nc,
      namespace,
      durable: ORG_DELETED,
      eventType: EventType.orgDeleted,
      logger,
      ackWaitMs,
      concurrency: 2,
      handler: (event) =>
        removeTenantInboxes(deps, logger, {
          consumer: ORG_DELETED,
          eventId: event.id,
          tenant: { kind: "org", scope: { orgId: event.data.org_id } },
        }),
    }),
    startConsumer({
      nc,
      namespace,
      durable: TEAM_DELETED,
      eventType: EventType.teamDeleted,
      logger,
      ackWaitMs,
      concurrency: 2,
      handler: async (event) => {
        if (!event.org_id) throw new Error("team.deleted without its org");
        await removeTenantInboxes(deps, logger, {
          consumer: TEAM_DELETED,
          eventId: event.id,
          tenant: { kind: "team", scope: { orgId: event.org_id, teamId: event.data.team_id } },
        });
      },
    }),
    startConsumer({
      nc,
      namespace,
      durable: TEAM_TRANSFERRED,
      eventType: EventType.teamTransferred,
      logger,
      handler: (event) =>
        moveTeamInboxes(deps, {
          consumer: TEAM_TRANSFERRED,
          eventId: event.id,
          teamId: event.data.team_id,
          fromOrgId: event.data.from_org_id,
          toOrgId: event.data.to_org_id,
        }),
    }),
    startConsumer({
      nc,
      namespace,
      durable: DOMAIN_TRANSFERRED,
      eventType: EventType.domainTransferred,
      logger,
      handler: (event) =>
        deactivateDomainInboxes(deps, {
          consumer: DOMAIN_TRANSFERRED,
          eventId: event.id,
          fromOrgId: event.data.from_org_id,
          domainId: event.data.domain_id,
        }),
    }),
  ]);
}
