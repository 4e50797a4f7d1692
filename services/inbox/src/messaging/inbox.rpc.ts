import { RpcName } from "@burnbox/contracts";
import { serveRpc, type Logger, type NatsConnection } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";
import { getInboxAccess } from "../domain/inboxes/get-inbox-access.use-case";

/** Realtime-gateway asks here who may watch an inbox. */
export function serveInboxRpc(nc: NatsConnection, deps: InboxDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(nc, deps.config.nats.namespace, RpcName.getInboxAccess, (req) => getInboxAccess(deps, { inboxId: req.inbox_id }), logger),
  ];
}
