import { RpcName, type TransferDomainResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { liveInboxCountsOf } from "../inbox-counts/live-inbox-counts";

/**
 * Moves a domain to another org (system admins): its assignments to the old org's teams are
 * removed, and its active inboxes (as the inbox service counts them) are the deactivated ones.
 * The target org must exist (404) and have room under its `max_domains` (409). The inbox service
 * deactivates those inboxes before the answer (read your writes); if it cannot answer, the transfer
 * stands and answers 503, and the `domain.transferred` event, committed with it, deactivates them
 * when it is back.
 */
export async function transferDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domainId: string; target_org_id: string },
): Promise<TransferDomainResult> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  if (input.target_org_id === scope.orgId) throw errors.validation("the domain already belongs to this organization");
  const target = { orgId: input.target_org_id };
  if (!(await deps.data.repos.domains.get(scope, input.domainId))) throw errors.notFound("domain");
  const { active } = await liveInboxCountsOf(deps, scope, input.domainId);
  const out = await deps.data.write(async (repos, events) => {
    const domain = await repos.domains.get(scope, input.domainId);
    if (!domain) throw errors.notFound("domain");
    const targetOrg = await repos.orgs.get(target);
    if (!targetOrg) throw errors.notFound("target organization");
    await repos.orgs.lockForQuota(target);
    const max = targetOrg.settings.max_domains;
    if ((await repos.domains.count(target)) >= max) throw errors.conflict(`domain limit reached (${max})`);
    const moved = await repos.impact.transferDomain(scope, domain.id, target.orgId);
    const transferred = events.event("domain.transferred", {
      org_id: scope.orgId,
      team_id: null,
      data: {
        domain_id: domain.id,
        domain_name: domain.domain_name,
        from_org_id: scope.orgId,
        to_org_id: target.orgId,
        removed_team_ids: moved.removedTeamIds,
      },
    });
    events.audit({
      ctx,
      action: "domain.transferred",
      org_id: scope.orgId,
      target: { type: "domain", id: domain.id },
      metadata: {
        domain_name: domain.domain_name,
        target_org_id: target.orgId,
        removed_assignments: moved.removedTeamIds.length,
        deactivated_inboxes: active,
      },
    });
    const after = await repos.domains.get(target, domain.id);
    if (!after) throw errors.notFound("domain");
    return {
      result: { domain: after, removed_assignments: moved.removedTeamIds.length, deactivated_inboxes: active },
      eventId: transferred.id,
    };
  });
  try {
    await rpcRequest(
      deps.nc,
      deps.config.nats.namespace,
      RpcName.deactivateDomainInboxes,
      { event_id: out.eventId, domain_id: input.domainId, from_org_id: scope.orgId },
      10_000,
    );
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    throw errors.unavailable("transferred, but the inboxes on it are still being deactivated: they stop within moments");
  }
  return out.result;
}
