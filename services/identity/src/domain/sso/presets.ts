import type { SsoProviderBody, SsoProviderType } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import { issuerRefusal } from "./issuer-policy";

/**
 * GitHub speaks plain OAuth2: its endpoints under the web origin and the API origin (github.com
 * and api.github.com unless `sso.github_url` / `sso.github_api_url` say otherwise), and the
 * verified primary email from its API.
 */
export function githubEndpoints(webUrl = "https://github.com", apiUrl = "https://api.github.com") {
  const web = webUrl.replace(/\/+$/, "");
  const api = apiUrl.replace(/\/+$/, "");
  return {
    issuer: web,
    authorization: `${web}/login/oauth/authorize`,
    token: `${web}/login/oauth/access_token`,
    user: `${api}/user`,
    emails: `${api}/user/emails`,
  } as const;
}
export type GithubEndpoints = ReturnType<typeof githubEndpoints>;
export const GITHUB = githubEndpoints();

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

/**
 * The github preset's endpoints from config (`sso.github_url`, `sso.github_api_url`): https, or
 * listed in `sso.unsafe_allowed_issuers` (a local test server); anything else refuses to start.
 */
export function configuredGithub(sso: {
  github_url: string;
  github_api_url: string;
  unsafe_allowed_issuers: readonly string[];
}): GithubEndpoints {
  for (const [key, url] of [
    ["sso.github_url", sso.github_url],
    ["sso.github_api_url", sso.github_api_url],
  ] as const) {
    const refusal = issuerRefusal(url, sso.unsafe_allowed_issuers);
    if (refusal) throw new Error(`${key}: ${refusal.replace("issuer_url", "the URL")}`);
  }
  return githubEndpoints(sso.github_url, sso.github_api_url);
}
