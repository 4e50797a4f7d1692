import type { NatsConnection } from "@burnbox/service-kit";
import { RpcName } from "@burnbox/contracts";
import { serveRpc, type Logger } from "@burnbox/service-kit";
import { authorize, getAssignment, listActorTeams } from "../domain/access.use-case";
import type { TenancyDeps } from "../domain/deps";

/** The request/reply subjects tenancy answers for the other services. */
export function serveTenancyRpc(nc: NatsConnection, deps: TenancyDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(nc, ns, RpcName.authorize, (req) => authorize(deps, req.actor, req.org_id, req.team_id, req.permission as never), logger),
    serveRpc(nc, ns, RpcName.listActorTeams, (req) => listActorTeams(deps, req.actor, req.permission as never), logger),
    serveRpc(nc, ns, RpcName.getAssignment, (req) => getAssignment(deps, req.assignment_id), logger),
  ];
}
