import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Duration, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";

/** Extensions 10: an allowed outbound recipient: an address, `@domain` (that domain) or `*.domain` (its subdomains). */
export const AllowedRecipient = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(
    /^(?:[^\s@<>(),;:"[\]\\]+@|@|\*\.)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
    "must be an address, @domain or *.domain",
  );
/** Extensions 10: whom mail sent from the org's inboxes may reach besides BurnBox's own inboxes. */
export const OutboundSettings = z
  .object({ allowed_recipients: z.array(AllowedRecipient).max(1000) })
  .strict()
  .openapi("OutboundSettings");
export type OutboundSettings = z.infer<typeof OutboundSettings>;

export const OrgSettings = z
  .object({
    attachments_enabled: z.boolean(),
    default_inbox_ttl: z.string(),
    max_inbox_ttl: z.string(),
    max_attachment_size_mb: z.number().int(),
    max_domains: z.number().int(),
    max_teams: z.number().int(),
    max_inboxes_per_domain: z.number().int(),
    enforce_sso: z.boolean(),
    outbound: OutboundSettings,
  })
  .openapi("OrgSettings");

export const Org = z
  .object({
    id: Uuid,
    name: z.string(),
    slug: z.string(),
    logo_url: z.string().nullable(),
    settings: OrgSettings,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Org");
export type Org = z.infer<typeof Org>;

/** The URL-safe handle of an org or a team. */
export const Slug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "slug: lowercase letters, digits and dashes");
/** The display name of an org or a team. */
export const TenantName = z.string().trim().min(1).max(100);

export const CreateOrgBody = z
  .object({ name: TenantName, slug: Slug.optional(), logo_url: z.string().url().optional() })
  .openapi("CreateOrgRequest");
export type CreateOrgBody = z.infer<typeof CreateOrgBody>;

/** An org as listed for its member: with the caller's role there. */
export const OrgWithRole = Org.extend({ role: z.string() }).openapi("OrgWithRole");
export type OrgWithRole = z.infer<typeof OrgWithRole>;

export const UpdateOrgBody = atLeastOneField(
  z.object({ name: TenantName.optional(), logo_url: z.string().url().max(2000).nullable().optional() }),
).openapi("UpdateOrgRequest");
export type UpdateOrgBody = z.infer<typeof UpdateOrgBody>;

/** The password of the caller, or for an account without one (SSO only) the org's slug. */
export const DeleteOrgBody = z
  .object({ password: z.string().min(1).max(1000).optional(), confirm: z.string().min(1).max(100).optional() })
  .openapi("DeleteOrgRequest");
export type DeleteOrgBody = z.infer<typeof DeleteOrgBody>;

/** A limit of an org's settings: a whole number of at least 1. */
const Limit = z.number().int().min(1).max(1_000_000);
/** PATCH and PUT both merge the fields they name into the stored settings. */
export const UpdateOrgSettingsBody = atLeastOneField(
  z
    .object({
      attachments_enabled: z.boolean().optional(),
      default_inbox_ttl: Duration.optional(),
      max_inbox_ttl: Duration.optional(),
      max_attachment_size_mb: Limit.optional(),
      max_domains: Limit.optional(),
      max_teams: Limit.optional(),
      max_inboxes_per_domain: Limit.optional(),
      enforce_sso: z.boolean().optional(),
      outbound: OutboundSettings.optional(),
    })
    .strict(),
).openapi("UpdateOrgSettingsRequest");
export type UpdateOrgSettingsBody = z.infer<typeof UpdateOrgSettingsBody>;

/** Settings of a lower tier (domain, team, assignment): the org's key names, each optional. */
export const TierSettings = z
  .object({
    attachments_enabled: z.boolean().optional(),
    default_inbox_ttl: Duration.optional(),
    max_inbox_ttl: Duration.optional(),
    max_inboxes_per_domain: Limit.optional(),
  })
  .strict()
  .openapi("TierSettings");
export type TierSettings = z.infer<typeof TierSettings>;

export const OrgRoleName = z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, "unknown role");
export const Member = z
  .object({
    id: Uuid,
    user_id: Uuid,
    org_id: Uuid,
    role: z.string(),
    email: z.string(),
    display_name: z.string(),
    created_at: Timestamp,
    last_login_at: Timestamp.nullable(),
  })
  .openapi("Member");
export type Member = z.infer<typeof Member>;
export const MyMembership = Member.extend({ permissions: z.array(z.string()) }).openapi("MyMembership");
export type MyMembership = z.infer<typeof MyMembership>;

export const ListMembersQuery = PaginationQuery.extend({ q: z.string().max(200).optional(), role: OrgRoleName.optional() });
export type ListMembersQuery = z.infer<typeof ListMembersQuery>;
export const AddMemberBody = z.object({ user_id: Uuid, role: OrgRoleName }).openapi("AddMemberRequest");
export type AddMemberBody = z.infer<typeof AddMemberBody>;
export const ChangeRoleBody = z.object({ role: OrgRoleName }).openapi("ChangeRoleRequest");
export type ChangeRoleBody = z.infer<typeof ChangeRoleBody>;
export const MemberParams = z.object({ orgId: Uuid, userId: Uuid });

export const SearchMembersQuery = PaginationQuery.extend({ q: z.string().max(200).optional(), exclude_team: Uuid.optional() });
export type SearchMembersQuery = z.infer<typeof SearchMembersQuery>;
export const MemberSearchResult = z.object({ user_id: Uuid, email: z.string(), display_name: z.string() }).openapi("MemberSearchResult");
export type MemberSearchResult = z.infer<typeof MemberSearchResult>;
