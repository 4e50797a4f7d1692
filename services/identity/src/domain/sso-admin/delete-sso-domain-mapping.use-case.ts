import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";

export async function deleteSsoDomainMapping(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { providerId: string; mappingId: string },
): Promise<undefined> {
  requireSystemAdmin(ctx);
  await deps.data.write(async (repos, events) => {
    const m = await repos.ssoProviders.mapping(input.providerId, input.mappingId);
    if (!m || !(await repos.ssoProviders.deleteMapping(input.providerId, input.mappingId))) throw errors.notFound("domain mapping");
    events.audit({
      ctx,
      action: "sso_domain_mapping.deleted",
      org_id: m.org_id,
      target: { type: "sso_domain_mapping", id: m.id },
      metadata: { provider_id: m.provider_id, domain: m.domain },
    });
  });
  return undefined;
}
