import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** The `:provider` path key of the login routes. */
export const SsoProviderName = z.string().regex(/^[a-z0-9-]{2,32}$/, "must be 2-32 characters of a-z, 0-9 and -");
export const SsoProviderType = z.enum(["oidc", "google", "azure", "okta", "github"]);
export type SsoProviderType = z.infer<typeof SsoProviderType>;

/** System org and team roles (custom roles are tenancy's; see the issue note). */
export const SsoOrgRole = z.enum(["owner", "admin", "member"]);
export const SsoTeamRole = z.enum(["lead", "member"]);

const ProviderText = z.string().trim().min(1).max(200);

/** An SSO provider as read back: the client secret is write-only (`has_client_secret`). */
export const SsoProvider = z
  .object({
    id: Uuid,
    name: SsoProviderName,
    provider_type: SsoProviderType,
    label: z.string(),
    client_id: z.string(),
    has_client_secret: z.boolean(),
    issuer_url: z.string().nullable(),
    tenant_id: z.string().nullable(),
    scopes: z.array(z.string()),
    enabled: z.boolean(),
    auto_provision: z.boolean(),
    trust_email: z.boolean(),
    default_org_id: Uuid.nullable(),
    default_org_role: SsoOrgRole,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("SsoProvider");
export type SsoProvider = z.infer<typeof SsoProvider>;

/**
 * Create (client_secret required) and PUT (a full body; an omitted or "" secret keeps the stored
 * one). Presets fill the issuer: google, azure (with `tenant_id`); oidc and okta need `issuer_url`.
 */
export const SsoProviderBody = z
  .object({
    name: SsoProviderName,
    provider_type: SsoProviderType,
    label: ProviderText,
    client_id: ProviderText,
    client_secret: z.string().max(1000).optional(),
    issuer_url: z.string().url().max(500).nullable().optional(),
    tenant_id: z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,100}$/, "must be a tenant id or domain")
      .nullable()
      .optional(),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, "must be a scope token"))
      .min(1)
      .max(20)
      .default(["openid", "email", "profile"]),
    enabled: z.boolean().default(true),
    auto_provision: z.boolean().default(false),
    /**
     * The provider is authoritative for the addresses it asserts: an address it sends counts as
     * verified even without an `email_verified` claim (never when it says false), the accounts it
     * creates have a verified address, and a first sign-in links to the local account of that
     * address when that account's address is verified. Off: a first sign-in never links to an
     * existing account (the user links the provider from the account page) and what it creates
     * is unverified. A local account whose address was never verified is never linked automatically.
     */
    trust_email: z.boolean().default(false),
    default_org_id: Uuid.nullable().optional(),
    default_org_role: SsoOrgRole.default("member"),
  })
  .strict()
  .openapi("SsoProviderRequest");
export type SsoProviderBody = z.infer<typeof SsoProviderBody>;

export const SsoProviderParams = z.object({ pid: Uuid });
export const SsoMappingParams = z.object({ pid: Uuid, mid: Uuid });

/** `POST /admin/sso/test`: a saved provider by id, or an unsaved provider body. */
export const SsoTestBody = z.union([z.object({ provider_id: Uuid }).strict(), SsoProviderBody]).openapi("SsoTestRequest");
export type SsoTestBody = z.infer<typeof SsoTestBody>;

export const SsoTestResult = z
  .object({
    success: z.boolean(),
    issuer: z.string().nullable(),
    endpoints: z.object({ authorization: z.string().nullable(), token: z.string().nullable(), jwks: z.string().nullable() }),
    message: z.string(),
  })
  .openapi("SsoTestResult");
export type SsoTestResult = z.infer<typeof SsoTestResult>;

const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a domain name");

export const SsoDomainMapping = z
  .object({
    id: Uuid,
    provider_id: Uuid,
    domain: z.string(),
    org_id: Uuid,
    team_id: Uuid.nullable(),
    org_role: SsoOrgRole,
    team_role: SsoTeamRole.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("SsoDomainMapping");
export type SsoDomainMapping = z.infer<typeof SsoDomainMapping>;

/** Create and PUT (full body). `team_role` defaults to member when a team is named. */
export const SsoDomainMappingBody = z
  .object({
    domain: EmailDomain,
    org_id: Uuid,
    team_id: Uuid.nullable().optional(),
    org_role: SsoOrgRole.default("member"),
    team_role: SsoTeamRole.nullable().optional(),
  })
  .strict()
  .openapi("SsoDomainMappingRequest");
export type SsoDomainMappingBody = z.infer<typeof SsoDomainMappingBody>;

export const SsoMappingPreviewBody = z
  .object({ email: z.string().trim().toLowerCase().email().max(254), provider: SsoProviderName })
  .strict()
  .openapi("SsoMappingPreviewRequest");
export type SsoMappingPreviewBody = z.infer<typeof SsoMappingPreviewBody>;

export const SsoMappingPreview = z
  .object({
    email: z.string(),
    email_domain: z.string(),
    provider: z.string(),
    matching_rules: z.array(SsoDomainMapping),
    would_provision: z.boolean(),
    org_role: SsoOrgRole.nullable(),
    /** `team_name` from tenancy; null only for a team that no longer exists. */
    team_assignments: z.array(z.object({ team_id: Uuid, team_name: z.string().nullable(), team_role: SsoTeamRole })),
  })
  .openapi("SsoMappingPreview");
export type SsoMappingPreview = z.infer<typeof SsoMappingPreview>;
