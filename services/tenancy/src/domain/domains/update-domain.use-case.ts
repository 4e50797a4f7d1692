import type { Domain, UpdateDomainBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { cascadeProblem } from "../settings/ttl-cascade";

/** Changes a domain's description or settings (merged; the TTL cascade below the org's). */
export async function updateDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domainId: string } & UpdateDomainBody,
): Promise<Domain> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  return deps.data.write(async (repos, events) => {
    const [domain, org] = await Promise.all([repos.domains.get(scope, input.domainId), repos.orgs.get(scope)]);
    if (!domain || !org) throw errors.notFound("domain");
    const settings = input.settings ? { ...domain.settings, ...input.settings } : undefined;
    if (settings) {
      const problem = cascadeProblem(settings, [withOrgDefaults(org.settings)]);
      if (problem) throw errors.validation(problem);
    }
    const updated = await repos.domains.update(scope, domain.id, {
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(settings ? { settings } : {}),
    });
    events.audit({
      ctx,
      action: "domain.updated",
      org_id: scope.orgId,
      target: { type: "domain", id: domain.id },
      metadata: { domain_name: domain.domain_name, fields: Object.keys(input).filter((k) => k !== "orgId" && k !== "domainId") },
    });
    return updated;
  });
}
