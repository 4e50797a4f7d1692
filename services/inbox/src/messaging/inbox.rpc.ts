import { RpcName } from "@burnbox/contracts";
import { serveRpc, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { getDemoConfig } from "../domain/demo/get-demo-config.use-case";
import type { InboxDeps } from "../domain/deps";
import { countDomainInboxes } from "../domain/inboxes/count-domain-inboxes.use-case";
import { getInboxAccess } from "../domain/inboxes/get-inbox-access.use-case";

/**
 * Realtime-gateway asks here who may watch an inbox; tenancy how many inboxes a domain holds;
 * identity what `demo.enabled` is configured to.
 */
export function serveInboxRpc(nc: NatsConnection, deps: InboxDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(nc, ns, RpcName.getInboxAccess, (req) => getInboxAccess(deps, { inboxId: req.inbox_id }), logger),
    serveRpc(
      nc,
      ns,
      RpcName.domainInboxCounts,
      (req) => countDomainInboxes(deps, { orgId: req.org_id, domainIds: req.domain_ids, teamId: req.team_id }),
      logger,
    ),
    serveRpc(nc, ns, RpcName.demoConfig, () => getDemoConfig(deps), logger),
  ];
}
