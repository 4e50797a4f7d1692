import { ErrorCode, RpcName } from "@burnbox/contracts";
import type { OrgScope } from "@burnbox/service-kit/data";
import { rpcRequest, RpcError } from "@burnbox/service-kit/messaging";
import { AppError, errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

export interface LiveInboxCounts {
  active: number;
  total: number;
}

/**
 * The inboxes on some of the org's domains (only a team's, with `teamId`), asked of the inbox
 * service, which keeps them: exact at the moment of asking, where the counters kept from its
 * events lag behind a create and miss a delete. 503 when the inbox service does not answer.
 */
export async function liveInboxCounts(
  deps: TenancyDeps,
  scope: OrgScope,
  domainIds: string[],
  teamId: string | null = null,
): Promise<Map<string, LiveInboxCounts>> {
  if (domainIds.length === 0) return new Map();
  let counts;
  try {
    ({ counts } = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.domainInboxCounts, {
      org_id: scope.orgId,
      domain_ids: domainIds,
      team_id: teamId,
    }));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("inbox service unavailable");
    throw err;
  }
  return new Map(counts.map((c) => [c.domain_id, { active: c.active_inboxes, total: c.total_inboxes }]));
}

/** One domain's live counts (zero when it holds none). */
export async function liveInboxCountsOf(
  deps: TenancyDeps,
  scope: OrgScope,
  domainId: string,
  teamId: string | null = null,
): Promise<LiveInboxCounts> {
  return (await liveInboxCounts(deps, scope, [domainId], teamId)).get(domainId) ?? { active: 0, total: 0 };
}

/** A delete refused while inboxes are active: 409 with their count. */
export const activeInboxesConflict = (what: string, active: number): AppError =>
  new AppError(ErrorCode.conflict, `${what} has active inboxes; use force=true`, { body: { active_inboxes: active } });
