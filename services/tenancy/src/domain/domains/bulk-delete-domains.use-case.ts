import type { BulkDeleteDomainsBody, BulkDeleteDomainsResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { liveInboxCounts } from "../inbox-counts/live-inbox-counts";

/** Deletes up to 50 of the org's domains in one change; unknown ones and those with active inboxes (without force) are skipped. */
export async function bulkDeleteDomains(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string } & BulkDeleteDomainsBody,
): Promise<BulkDeleteDomainsResult> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  const force = input.force ?? false;
  const ids = [...new Set(input.domain_ids)];
  const inboxes = force ? new Map<string, { active: number }>() : await liveInboxCounts(deps, scope, ids);
  return deps.data.write(async (repos, events) => {
    const result: BulkDeleteDomainsResult = { deleted: 0, skipped: [] };
    for (const domainId of ids) {
      const domain = await repos.domains.get(scope, domainId);
      if (!domain) result.skipped.push({ domain_id: domainId, reason: "not_found" });
      else if ((inboxes.get(domainId)?.active ?? 0) > 0 && !force) result.skipped.push({ domain_id: domainId, reason: "active_inboxes" });
      else {
        await repos.domains.delete(scope, domainId);
        result.deleted += 1;
        events.audit({
          ctx,
          action: "domain.deleted",
          org_id: scope.orgId,
          target: { type: "domain", id: domainId },
          metadata: { domain_name: domain.domain_name, forced: force, bulk: true },
        });
      }
    }
    return result;
  });
}
