import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { activeInboxesConflict, liveInboxCountsOf } from "../inbox-counts/live-inbox-counts";

/** Deletes a domain and its assignments; with active inboxes (as the inbox service counts them) only when forced. */
export async function deleteDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domainId: string; force: boolean },
): Promise<{ message: string }> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  if (!(await deps.data.repos.domains.get(scope, input.domainId))) throw errors.notFound("domain");
  const { active } = await liveInboxCountsOf(deps, scope, input.domainId);
  if (active > 0 && !input.force) throw activeInboxesConflict("domain", active);
  return deps.data.write(async (repos, events) => {
    const domain = await repos.domains.get(scope, input.domainId);
    if (!domain) throw errors.notFound("domain");
    await repos.domains.delete(scope, domain.id);
    events.audit({
      ctx,
      action: "domain.deleted",
      org_id: scope.orgId,
      target: { type: "domain", id: domain.id },
      metadata: { domain_name: domain.domain_name, forced: input.force, active_inboxes: active },
    });
    return { message: "domain deleted" };
  });
}
