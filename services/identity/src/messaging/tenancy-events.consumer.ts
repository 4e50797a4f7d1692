import { EventType } from "@burnbox/contracts";
import { startConsumer, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { IdentityDeps } from "../domain/deps";
import { moveTeamApiKeys } from "../domain/tenants/move-team-api-keys.use-case";
import { removeTenantApiKeys } from "../domain/tenants/remove-tenant-api-keys.use-case";

const ORG_DELETED = "identity-apikeys-org-deleted";
const TEAM_DELETED = "identity-apikeys-team-deleted";
const TEAM_TRANSFERRED = "identity-apikeys-team-transferred";

/** Tenancy's removals and moves, one durable consumer each (shared by replicas), idempotent on the event id. */
export async function startTenancyConsumers(deps: IdentityDeps, logger: Logger): Promise<RunningConsumer[]> {
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
        removeTenantApiKeys(deps, logger, {
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
        await removeTenantApiKeys(deps, logger, {
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
        moveTeamApiKeys(deps, {
          consumer: TEAM_TRANSFERRED,
          eventId: event.id,
          teamId: event.data.team_id,
          fromOrgId: event.data.from_org_id,
          toOrgId: event.data.to_org_id,
        }),
    }),
  ]);
}
