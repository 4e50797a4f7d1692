import type { Org, UpdateOrgBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** Renames an org or changes its logo; the slug never changes. */
export async function updateOrg(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & UpdateOrgBody): Promise<Org> {
  const scope = await requireOrg(deps, ctx, input, "org.settings.manage");
  return deps.data.write(async (repos, events) => {
    const org = await repos.orgs.update(scope, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.logo_url !== undefined ? { logoUrl: input.logo_url } : {}),
    });
    events.audit({
      ctx,
      action: "org.updated",
      org_id: scope.orgId,
      target: { type: "org", id: scope.orgId },
      metadata: { fields: Object.keys(input).filter((k) => k !== "orgId") },
    });
    return org;
  });
}
