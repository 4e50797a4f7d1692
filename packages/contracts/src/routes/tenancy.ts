import { z } from "../zod";
import { PaginationQuery, paginated } from "../pagination";
import { OrgParams, TeamParams, Timestamp, Uuid, errorResponses } from "./common";
import { defineRoutes } from "./route";

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

const Slug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "slug: lowercase letters, digits and dashes");

export const CreateOrgBody = z
  .object({ name: z.string().trim().min(1).max(100), slug: Slug.optional(), logo_url: z.string().url().optional() })
  .openapi("CreateOrgRequest");
export type CreateOrgBody = z.infer<typeof CreateOrgBody>;

export const Team = z
  .object({
    id: Uuid,
    org_id: Uuid,
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    is_archived: z.boolean(),
    archived_at: Timestamp.nullable(),
    settings: z.record(z.string(), z.unknown()),
    member_count: z.number().int(),
    domain_count: z.number().int(),
    active_inboxes: z.number().int(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Team");
export type Team = z.infer<typeof Team>;

export const CreateTeamBody = z
  .object({ name: z.string().trim().min(1).max(100), slug: Slug.optional(), description: z.string().max(500).optional() })
  .openapi("CreateTeamRequest");
export type CreateTeamBody = z.infer<typeof CreateTeamBody>;

export const DomainStatus = z.enum(["pending_verification", "partially_verified", "verified", "failed"]);
export const Domain = z
  .object({
    id: Uuid,
    org_id: Uuid,
    domain_name: z.string(),
    description: z.string().nullable(),
    status: DomainStatus,
    mx_verified: z.boolean(),
    txt_verified: z.boolean(),
    spf_verified: z.boolean(),
    verification_record: z.string(),
    dns_last_checked_at: Timestamp.nullable(),
    settings: z.record(z.string(), z.unknown()),
    active_inboxes: z.number().int(),
    total_inboxes: z.number().int(),
    team_count: z.number().int(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Domain");
export type Domain = z.infer<typeof Domain>;

export const DomainName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a domain name such as mail.example.com");

export const CreateDomainBody = z
  .object({ domain_name: DomainName, description: z.string().max(500).optional() })
  .openapi("CreateDomainRequest");
export type CreateDomainBody = z.infer<typeof CreateDomainBody>;

export const AccessLevel = z.enum(["full", "create_inbox", "read_only"]);
export const DomainAssignment = z
  .object({
    id: Uuid,
    team_id: Uuid,
    domain_id: Uuid,
    domain_name: z.string(),
    access_level: AccessLevel,
    settings: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("DomainAssignment");
export type DomainAssignment = z.infer<typeof DomainAssignment>;

export const AssignDomainBody = z.object({ domain_id: Uuid, access_level: AccessLevel.default("full") }).openapi("AssignDomainRequest");
export type AssignDomainBody = z.infer<typeof AssignDomainBody>;

export const tenancyRoutes = defineRoutes([
  {
    operationId: "createOrg",
    method: "post",
    path: "/orgs",
    service: "tenancy",
    auth: "user",
    tag: "Orgs",
    summary: "Create an organization (the caller becomes its owner)",
    request: { body: CreateOrgBody },
    responses: { 201: { description: "Created", schema: Org }, 400: errorResponses[400], 409: { description: "Slug taken" } },
  },
  {
    operationId: "getOrg",
    method: "get",
    path: "/orgs/{orgId}",
    service: "tenancy",
    auth: "user",
    tag: "Orgs",
    summary: "Get an organization",
    request: { params: OrgParams },
    responses: { 200: { description: "The org", schema: Org }, 404: errorResponses[404] },
  },
  {
    operationId: "createTeam",
    method: "post",
    path: "/orgs/{orgId}/teams",
    service: "tenancy",
    auth: "user",
    tag: "Teams",
    summary: "Create a team (the caller becomes its lead)",
    request: { params: OrgParams, body: CreateTeamBody },
    responses: { 201: { description: "Created", schema: Team }, 403: errorResponses[403], 409: { description: "Slug taken" } },
  },
  {
    operationId: "listTeams",
    method: "get",
    path: "/orgs/{orgId}/teams",
    service: "tenancy",
    auth: "user",
    tag: "Teams",
    summary: "List the teams of an organization visible to the caller",
    request: { params: OrgParams, query: PaginationQuery },
    responses: { 200: { description: "Teams", schema: paginated(Team, "TeamPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "createDomain",
    method: "post",
    path: "/orgs/{orgId}/domains",
    service: "tenancy",
    auth: "user",
    tag: "Domains",
    summary: "Add a domain to an organization",
    request: { params: OrgParams, body: CreateDomainBody },
    responses: { 201: { description: "Created", schema: Domain }, 403: errorResponses[403], 409: { description: "Domain exists" } },
  },
  {
    operationId: "assignDomain",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/domains",
    service: "tenancy",
    auth: "user",
    tag: "Domain assignments",
    summary: "Assign a verified domain to a team",
    request: { params: TeamParams, body: AssignDomainBody },
    responses: {
      201: { description: "Assigned", schema: DomainAssignment },
      400: { description: "Domain not verified" },
      409: { description: "Already assigned" },
    },
  },
] as const);
