import type { SsoDomainMapping, SsoDomainMappingBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { duplicateMapping, mappingFields, requireTarget } from "./domain-mappings";

/** PUT takes the full body. */
export async function updateSsoDomainMapping(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { providerId: string; mappingId: string; body: SsoDomainMappingBody },
): Promise<SsoDomainMapping> {
  requireSystemAdmin(ctx);
  const fields = mappingFields(input.body);
  if (!(await deps.data.repos.ssoProviders.mapping(input.providerId, input.mappingId))) throw errors.notFound("domain mapping");
  await requireTarget(deps, fields);
  return deps.data.write(async (repos, events) => {
    if (!(await repos.ssoProviders.mapping(input.providerId, input.mappingId))) throw errors.notFound("domain mapping");
    if (await repos.ssoProviders.hasTwin(input.providerId, fields, input.mappingId)) throw duplicateMapping();
    const m = await repos.ssoProviders.replaceMapping(input.mappingId, fields);
    events.audit({
      ctx,
      action: "sso_domain_mapping.updated",
      org_id: m.org_id,
      target: { type: "sso_domain_mapping", id: m.id },
      metadata: { provider_id: m.provider_id, domain: m.domain, team_id: m.team_id, org_role: m.org_role, team_role: m.team_role },
    });
    return m;
  });
}
