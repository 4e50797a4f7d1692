import { EventType, RpcName } from "@burnbox/contracts";
import { serveRpc, startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { serveTeamMove, startTenantEventConsumers } from "@burnbox/tenant-removal";
import type { InboxDeps } from "../domain/deps";
import { deactivateDomainInboxes } from "../domain/tenants/deactivate-domain-inboxes.use-case";
import { moveTeamInboxes } from "../domain/tenants/move-team-inboxes.use-case";
import { removeTenantInboxes } from "../domain/tenants/remove-tenant-inboxes.use-case";

const DOMAIN_TRANSFERRED = "inbox-domain-transferred";

/**
 * Tenancy's removals and moves (`inbox-org-deleted`, `-team-deleted`, `-team-transferred`) and
 * domain moves, one durable consumer each (shared by replicas), idempotent on the event id; and
 * tenancy's awaited requests to move a transferred team (`inbox.move_team`) and to deactivate a
 * transferred domain's inboxes (`inbox.deactivate_domain_inboxes`) now, each claimed as its event.
 */
export async function startTenancyConsumers(deps: InboxDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  const [tenants, domains] = await Promise.all([
    startTenantEventConsumers({
      nc,
      namespace,
      durablePrefix: "inbox",
      logger,
      onRemoved: (input) => removeTenantInboxes(deps, logger, input),
      onTransferred: (input) => moveTeamInboxes(deps, input),
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
  const move = serveTeamMove({
    nc,
    namespace,
    durablePrefix: "inbox",
    rpc: RpcName.moveTeamInboxes,
    logger,
    onTransferred: (input) => moveTeamInboxes(deps, input),
  });
  const domainRpc = serveRpc(
    nc,
    namespace,
    RpcName.deactivateDomainInboxes,
    async (req) => {
      await deactivateDomainInboxes(deps, {
        consumer: DOMAIN_TRANSFERRED,
        eventId: req.event_id,
        fromOrgId: req.from_org_id,
        domainId: req.domain_id,
      });
      return {};
    },
    logger,
  );
  return [...tenants, move, domains, domainRpc];
}
