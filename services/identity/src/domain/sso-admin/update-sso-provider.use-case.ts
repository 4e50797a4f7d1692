import type { SsoProvider, SsoProviderBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { publicProvider } from "../../data/sso-provider.repository";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { providerAudit, providerFields } from "./provider-fields";

/** A full replace; an omitted or empty client_secret keeps the stored one. */
export async function updateSsoProvider(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { providerId: string; body: SsoProviderBody },
): Promise<SsoProvider> {
  requireSystemAdmin(ctx);
  const current = await deps.data.repos.ssoProviders.get(input.providerId);
  if (!current) throw errors.notFound("SSO provider");
  const fields = providerFields(deps, input.body, current.clientSecretEnc);
  return deps.data.write(async (repos, events) => {
    const p = await repos.ssoProviders.replace(input.providerId, fields);
    events.audit({
      ctx,
      action: "sso_provider.updated",
      org_id: null,
      target: { type: "sso_provider", id: p.id },
      metadata: { ...providerAudit(fields), client_secret_changed: Boolean(input.body.client_secret) },
    });
    deps.rp.forget(p.id);
    return publicProvider(p);
  });
}
