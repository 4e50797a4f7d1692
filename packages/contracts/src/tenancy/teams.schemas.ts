import { z } from "../zod";
import { BULK_MAX_IDS, PaginationQuery } from "../pagination";
import { TeamParams, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";
import { OrgRoleName, Slug, TenantName, TierSettings } from "./orgs.schemas";

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
  .object({ name: TenantName, slug: Slug.optional(), description: z.string().max(500).optional() })
  .openapi("CreateTeamRequest");
export type CreateTeamBody = z.infer<typeof CreateTeamBody>;

export const ListTeamsQuery = PaginationQuery.extend({
  q: z.string().max(200).optional(),
  archived: z.enum(["false", "true", "all"]).default("false"),
});
export type ListTeamsQuery = z.infer<typeof ListTeamsQuery>;

export const UpdateTeamBody = atLeastOneField(
  z.object({ name: TenantName.optional(), description: z.string().max(500).nullable().optional(), settings: TierSettings.optional() }),
).openapi("UpdateTeamRequest");
export type UpdateTeamBody = z.infer<typeof UpdateTeamBody>;

export const TransferTeamBody = z.object({ target_org_id: Uuid }).openapi("TransferTeamRequest");
export const TransferTeamResult = z
  .object({ team: Team, removed_members: z.array(z.object({ user_id: Uuid, email: z.string() })) })
  .openapi("TransferTeamResult");
export type TransferTeamResult = z.infer<typeof TransferTeamResult>;

export const TeamMember = z
  .object({
    id: Uuid,
    team_id: Uuid,
    user_id: Uuid,
    role: z.string(),
    email: z.string(),
    display_name: z.string(),
    created_at: Timestamp,
  })
  .openapi("TeamMember");
export type TeamMember = z.infer<typeof TeamMember>;

export const ListTeamMembersQuery = PaginationQuery.extend({ q: z.string().max(200).optional(), role: OrgRoleName.optional() });
export type ListTeamMembersQuery = z.infer<typeof ListTeamMembersQuery>;
/** A member is named by user id or by email (an org member's). */
export const AddTeamMemberBody = z
  .object({ user_id: Uuid.optional(), email: z.string().trim().toLowerCase().email().max(320).optional(), role: OrgRoleName })
  .refine((b) => (b.user_id === undefined) !== (b.email === undefined), { message: "exactly one of user_id and email is required" })
  .openapi("AddTeamMemberRequest");
export type AddTeamMemberBody = z.infer<typeof AddTeamMemberBody>;
export const TeamMemberParams = TeamParams.extend({ userId: Uuid });

export const BulkAddTeamMembersBody = z
  .object({ members: z.array(AddTeamMemberBody).min(1).max(BULK_MAX_IDS) })
  .openapi("BulkAddTeamMembersRequest");
export type BulkAddTeamMembersBody = z.infer<typeof BulkAddTeamMembersBody>;
export const BulkAddTeamMembersResult = z
  .object({ added: z.array(TeamMember), skipped: z.array(z.object({ identifier: z.string(), reason: z.string() })) })
  .openapi("BulkAddTeamMembersResult");
export type BulkAddTeamMembersResult = z.infer<typeof BulkAddTeamMembersResult>;
export const BulkRemoveTeamMembersBody = z
  .object({ user_ids: z.array(Uuid).min(1).max(BULK_MAX_IDS) })
  .openapi("BulkRemoveTeamMembersRequest");
export type BulkRemoveTeamMembersBody = z.infer<typeof BulkRemoveTeamMembersBody>;
export const BulkRemoveTeamMembersResult = z
  .object({ removed: z.number().int(), skipped: z.array(z.object({ user_id: Uuid, reason: z.string() })) })
  .openapi("BulkRemoveTeamMembersResult");
export type BulkRemoveTeamMembersResult = z.infer<typeof BulkRemoveTeamMembersResult>;
