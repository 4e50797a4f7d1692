import { randomUUID } from "node:crypto";
import type { SsoDomainMapping, SsoDomainMappingBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { duplicateMapping, mappingFields, requireProvider, requireTarget } from "./domain-mappings";

export async function createSsoDomainMapping(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { providerId: string; body: SsoDomainMappingBody },
): Promise<SsoDomainMapping> {
  requireSystemAdmin(ctx);
  const fields = mappingFields(input.body);
  await requireProvider(deps, input.providerId);
  await requireTarget(deps, fields);
  return deps.data.write(async (repos, events) => {
    if (await repos.ssoProviders.hasTwin(input.providerId, fields, null)) throw duplicateMapping();
    const m = await repos.ssoProviders.createMapping(randomUUID(), input.providerId, fields);
    events.audit({
      ctx,
      action: "sso_domain_mapping.created",
      org_id: m.org_id,
      target: { type: "sso_domain_mapping", id: m.id },
      metadata: { provider_id: m.provider_id, domain: m.domain, team_id: m.team_id, org_role: m.org_role, team_role: m.team_role },
    });
    return m;
  });
}
