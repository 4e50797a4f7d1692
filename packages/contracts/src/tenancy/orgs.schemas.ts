import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

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
