// The SSO presets the console offers, and the provider body built from the form.
import type { components } from "@burnbox/sdk";

export type SsoProvider = components["schemas"]["SsoProvider"];
export type SsoProviderBody = components["schemas"]["SsoProviderRequest"];
export type ProviderType = SsoProviderBody["provider_type"];

export interface Preset {
  type: ProviderType;
  title: string;
  /** what the preset fills and what it still needs */
  hint: string;
  needs: "issuer" | "tenant" | "nothing";
  label: string;
  name: string;
  scopes: string[];
}

const OIDC_SCOPES = ["openid", "email", "profile"];

export const PRESETS: Preset[] = [
  {
    type: "google",
    title: "Google",
    hint: "Issuer filled in: accounts.google.com.",
    needs: "nothing",
    label: "Google",
    name: "google",
    scopes: OIDC_SCOPES,
  },
  {
    type: "azure",
    title: "Microsoft Entra ID",
    hint: "Give the directory (tenant) id or domain; the issuer follows from it.",
    needs: "tenant",
    label: "Microsoft",
    name: "microsoft",
    scopes: OIDC_SCOPES,
  },
  {
    type: "okta",
    title: "Okta",
    hint: "Give your Okta issuer URL (https://<org>.okta.com).",
    needs: "issuer",
    label: "Okta",
    name: "okta",
    scopes: OIDC_SCOPES,
  },
  {
    type: "github",
    title: "GitHub",
    hint: "OAuth app: no issuer; the verified primary email is used.",
    needs: "nothing",
    label: "GitHub",
    name: "github",
    scopes: ["read:user", "user:email"],
  },
  {
    type: "oidc",
    title: "Other OpenID Connect",
    hint: "Any provider with a discovery document: give its https issuer URL.",
    needs: "issuer",
    label: "",
    name: "",
    scopes: OIDC_SCOPES,
  },
];

export const presetOf = (type: ProviderType): Preset => PRESETS.find((p) => p.type === type) ?? PRESETS[PRESETS.length - 1]!;

/** The form's values: everything a provider body holds, the secret as typed ("" keeps the stored one). */
export type ProviderDraft = {
  provider_type: ProviderType;
  name: string;
  label: string;
  client_id: string;
  client_secret: string;
  issuer_url: string;
  tenant_id: string;
  scopes: string;
  enabled: boolean;
  auto_provision: boolean;
  trust_email: boolean;
  default_org_id: string | null;
  default_org_role: SsoProviderBody["default_org_role"];
};

export function draftFromPreset(p: Preset): ProviderDraft {
  return {
    provider_type: p.type,
    name: p.name,
    label: p.label,
    client_id: "",
    client_secret: "",
    issuer_url: "",
    tenant_id: "",
    scopes: p.scopes.join(" "),
    enabled: true,
    auto_provision: false,
    trust_email: false,
    default_org_id: null,
    default_org_role: "member",
  };
}

export function draftFromProvider(p: SsoProvider): ProviderDraft {
  return {
    provider_type: p.provider_type,
    name: p.name,
    label: p.label,
    client_id: p.client_id,
    client_secret: "",
    issuer_url: p.issuer_url ?? "",
    tenant_id: p.tenant_id ?? "",
    scopes: p.scopes.join(" "),
    enabled: p.enabled,
    auto_provision: p.auto_provision,
    trust_email: p.trust_email,
    default_org_id: p.default_org_id,
    default_org_role: p.default_org_role,
  };
}

/** The API body of a draft: the issuer only where the preset takes one, the tenant only for azure, no empty secret. */
export function bodyOf(d: ProviderDraft): SsoProviderBody {
  const needs = presetOf(d.provider_type).needs;
  return {
    provider_type: d.provider_type,
    name: d.name.trim(),
    label: d.label.trim(),
    client_id: d.client_id.trim(),
    ...(d.client_secret ? { client_secret: d.client_secret } : {}),
    issuer_url: needs === "issuer" ? d.issuer_url.trim() || null : null,
    tenant_id: needs === "tenant" ? d.tenant_id.trim() || null : null,
    scopes: d.scopes.split(/[\s,]+/).filter(Boolean),
    enabled: d.enabled,
    auto_provision: d.auto_provision,
    trust_email: d.trust_email,
    default_org_id: d.default_org_id,
    default_org_role: d.default_org_role,
  };
}

/** Where the provider sends people back: register this at the provider. */
export function callbackUrl(apiBase: string, name: string, page: string): string {
  return new URL(`${apiBase.replace(/\/+$/, "")}/auth/sso/${name || "<name>"}/callback`, page).toString().replace("%3Cname%3E", "<name>");
}
