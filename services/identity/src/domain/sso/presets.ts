import type { SsoProviderBody, SsoProviderType } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import { issuerRefusal } from "./issuer-policy";

/** GitHub speaks plain OAuth2: fixed endpoints, and the verified primary email from its API. */
export const GITHUB = {
  issuer: "https://github.com",
  authorization: "https://github.com/login/oauth/authorize",
  token: "https://github.com/login/oauth/access_token",
  user: "https://api.github.com/user",
  emails: "https://api.github.com/user/emails",
} as const;

/** Where a provider's issuer comes from: the preset (google, azure with its tenant) or the body. */
export function presetIssuer(type: SsoProviderType, issuerUrl: string | null, tenantId: string | null): string | null {
  switch (type) {
    case "google":
      return "https://accounts.google.com";
    case "azure":
      return tenantId ? `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/v2.0` : null;
    case "okta":
    case "oidc":
      return issuerUrl;
    case "github":
      return null;
  }
}

/** The stored issuer and tenant of a provider body, after the preset and issuer rules (400 otherwise). */
export function resolveProviderIssuer(
  body: Pick<SsoProviderBody, "provider_type" | "issuer_url" | "tenant_id">,
  unsafeAllowed: readonly string[],
): { issuerUrl: string | null; tenantId: string | null } {
  const tenantId = body.provider_type === "azure" ? (body.tenant_id ?? null) : null;
  if (body.provider_type === "azure" && !tenantId) throw errors.validation("tenant_id is required for azure");
  const given = body.issuer_url ?? null;
  if ((body.provider_type === "oidc" || body.provider_type === "okta") && !given) {
    throw errors.validation(`issuer_url is required for ${body.provider_type}`);
  }
  const issuerUrl = presetIssuer(body.provider_type, given ? given.replace(/\/+$/, "") : null, tenantId);
  if (issuerUrl) {
    const refusal = issuerRefusal(issuerUrl, unsafeAllowed);
    if (refusal) throw errors.validation(refusal);
  }
  return { issuerUrl, tenantId };
}
