import { RpcName } from "@burnbox/contracts";
import { serveRpc, type Logger, type NatsConnection } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";

/** Realtime-gateway asks here who may watch an inbox. */
export function serveInboxRpc(nc: NatsConnection, deps: InboxDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(
      nc,
      deps.config.nats.namespace,
      RpcName.getInboxAccess,
      async (req) => {
        const i = await deps.db.inbox.findUnique({ where: { id: req.inbox_id } });
        if (!i) return { inbox: null };
        return {
          inbox: { id: i.id, org_id: i.orgId, team_id: i.teamId, created_by: i.createdBy, private: i.private, is_active: i.isActive },
        };
      },
      logger,
    ),
  ];
}
