import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

/** The services that keep a team's rows under its org, each asked to re-file them. */
const OWNERS = [RpcName.moveTeamApiKeys, RpcName.moveTeamInboxes, RpcName.moveTeamWebhooks] as const;

/**
 * Read your writes for a transferred team: identity, inbox and webhook-dispatcher re-file its keys,
 * inboxes and webhooks under the new org before the transfer answers, so the new org reads them at
 * once. Each move is claimed under the `team.transferred` event's id (committed with the transfer),
 * so the event then changes nothing; if a service cannot answer, the transfer stands and answers
 * 503, and the event moves that service's rows when it is back.
 */
export async function moveTeamData(
  deps: TenancyDeps,
  move: { eventId: string; teamId: string; fromOrgId: string; toOrgId: string },
): Promise<void> {
  const req = { event_id: move.eventId, team_id: move.teamId, from_org_id: move.fromOrgId, to_org_id: move.toOrgId };
  const results = await Promise.allSettled(OWNERS.map((rpc) => rpcRequest(deps.nc, deps.config.nats.namespace, rpc, req, 10_000)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return;
  if (!(failed.reason instanceof RpcError)) throw failed.reason;
  throw errors.unavailable("transferred, but the team's inboxes, webhooks or keys are still moving: they follow within moments");
}
