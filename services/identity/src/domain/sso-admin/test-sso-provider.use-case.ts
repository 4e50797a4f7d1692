import type { SsoTestBody, SsoTestResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { EMPTY_ALLOWLIST, RefusedTarget, guardedRequest, parseAllowlist } from "@burnbox/service-kit/security";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { isUnsafeAllowed } from "../sso/issuer-policy";
import { configuredGithub, presetIssuer } from "../sso/presets";
import { resolveProviderIssuer } from "../sso/presets";

const failed = (issuer: string | null, message: string): SsoTestResult => ({
  success: false,
  issuer,
  endpoints: { authorization: null, token: null, jwks: null },
  message,
});

/** Fetches the discovery document of a saved or an unsaved provider under the SSRF rules, without redirects. */
export async function testSsoProvider(deps: IdentityDeps, ctx: RequestCtx, body: SsoTestBody): Promise<SsoTestResult> {
  requireSystemAdmin(ctx);
  let type: string;
  let issuer: string | null;
  if ("provider_id" in body) {
    const p = await deps.data.repos.ssoProviders.get(body.provider_id);
    if (!p) throw errors.notFound("SSO provider");
    type = p.provider_type;
    issuer = presetIssuer(p.provider_type, p.issuer_url, p.tenant_id);
  } else {
    type = body.provider_type;
    issuer = resolveProviderIssuer(body, deps.config.sso.unsafe_allowed_issuers).issuerUrl;
  }
  if (type === "github" || !issuer) {
    const github = configuredGithub(deps.config.sso);
    return {
      success: true,
      issuer: github.issuer,
      endpoints: { authorization: github.authorization, token: github.token, jwks: null },
      message: "GitHub uses fixed OAuth2 endpoints (sso.github_url)",
    };
  }
  const base = new URL(issuer);
  const discovery = new URL(`${base.pathname.replace(/\/+$/, "")}/.well-known/openid-configuration`, base);
  let answer: { status: number; body: string };
  try {
    // the kit's guard, resolving through dns.servers; an issuer on sso.unsafe_allowed_issuers is exempt from the address rules
    const exempt = isUnsafeAllowed(base, deps.config.sso.unsafe_allowed_issuers);
    const res = await guardedRequest(discovery, {
      policy: { resolve: deps.outbound.resolve, allowed: exempt ? parseAllowlist([base.hostname]) : EMPTY_ALLOWLIST },
      headers: { accept: "application/json" },
      timeoutMs: 5000,
      maxBytes: 512 * 1024,
    });
    answer = { status: res.status, body: res.body.toString("utf8") };
  } catch (err) {
    return failed(
      issuer,
      err instanceof RefusedTarget ? "refused: the issuer is not a public address" : "the discovery document could not be fetched",
    );
  }
  if (answer.status >= 300 && answer.status < 400)
    return failed(issuer, "refused: the discovery document redirects (redirects are not followed)");
  if (answer.status !== 200) return failed(issuer, `the discovery document answered ${answer.status}`);
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return failed(issuer, "the discovery document is not JSON");
  }
  const str = (k: string): string | null => {
    const v = doc[k];
    return typeof v === "string" ? v : null;
  };
  const endpoints = { authorization: str("authorization_endpoint"), token: str("token_endpoint"), jwks: str("jwks_uri") };
  if (str("issuer") !== issuer) return { ...failed(issuer, "the discovery document names another issuer"), endpoints };
  if (!endpoints.authorization || !endpoints.token || !endpoints.jwks)
    return { ...failed(issuer, "the discovery document lacks endpoints"), endpoints };
  return { success: true, issuer, endpoints, message: "discovery document fetched" };
}
