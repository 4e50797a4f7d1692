import { EventType } from "@burnbox/contracts";
import { startConsumer, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import { moveTeamWebhooks } from "../domain/tenants/move-team-webhooks.use-case";
import { removeTenantWebhooks } from "../domain/tenants/remove-tenant-webhooks.use-case";

const ORG_DELETED = "webhooks-org-deleted";
const TEAM_DELETED = "webhooks-team-deleted";
const TEAM_TRANSFERRED = "webhooks-team-transferred";

/** Tenancy's removals and moves, one durable consumer each (shared by replicas), idempotent on the event id. */
export async function startTenancyConsumers(deps: DispatcherDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
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
        removeTenantWebhooks(deps, logger, {
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
        await removeTenantWebhooks(deps, logger, {
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
        moveTeamWebhooks(deps, {
          consumer: TEAM_TRANSFERRED,
          eventId: event.id,
          teamId: event.data.team_id,
          fromOrgId: event.data.from_org_id,
          toOrgId: event.data.to_org_id,
        }),
    }),
  ]);
}
