import type { SsoProviderBody } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { ProviderFields } from "../../data/sso-provider.repository";
import type { IdentityDeps } from "../deps";
import { resolveProviderIssuer } from "../sso/presets";

/** The stored fields of a provider body; `keptSecret` is the sealed secret a PUT keeps when it sends none. */
export function providerFields(deps: IdentityDeps, body: SsoProviderBody, keptSecret: string | null): ProviderFields {
  const { issuerUrl, tenantId } = resolveProviderIssuer(body, deps.config.sso.unsafe_allowed_issuers);
  const secret = body.client_secret ?? "";
  if (!secret && keptSecret === null) throw errors.validation("client_secret is required");
  return {
    name: body.name,
    providerType: body.provider_type,
    label: body.label,
    clientId: body.client_id,
    clientSecretEnc: secret ? deps.secrets.seal(secret) : keptSecret!,
    issuerUrl,
    tenantId,
    scopes: [...new Set(body.scopes)],
    enabled: body.enabled,
    autoProvision: body.auto_provision,
    trustEmail: body.trust_email,
    defaultOrgId: body.default_org_id ?? null,
    defaultOrgRole: body.default_org_role,
  };
}

/** What the audit entry says about a provider: never the secret. */
export const providerAudit = (f: ProviderFields) => ({
  name: f.name,
  provider_type: f.providerType,
  issuer_url: f.issuerUrl,
  enabled: f.enabled,
  auto_provision: f.autoProvision,
  trust_email: f.trustEmail,
});
