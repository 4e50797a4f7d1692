import type { SsoMappingPreview, SsoMappingPreviewBody } from "@burnbox/contracts";
import { errors, type RequestCtx } from "@burnbox/service-kit";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { emailDomainOf, previewOf, provisioningPlan } from "./provisioning-plan";

export async function previewSsoDomainMapping(
  deps: IdentityDeps,
  ctx: RequestCtx,
  body: SsoMappingPreviewBody,
): Promise<SsoMappingPreview> {
  requireSystemAdmin(ctx);
  const provider = await deps.data.repos.ssoProviders.byName(body.provider);
  if (!provider) throw errors.notFound("SSO provider");
  const matching = await deps.data.repos.ssoProviders.mappingsForDomain(provider.id, emailDomainOf(body.email));
  return previewOf(body.email, provider.name, provisioningPlan(provider, matching));
}
