import { z } from "../zod";
import { BULK_MAX_IDS, PaginationQuery } from "../pagination";
import { OrgParams, Timestamp, Uuid } from "../shared/common.schemas";
import { Org, OrgRoleName } from "./orgs.schemas";

/** An invited address: trimmed and lower-cased, as accounts store theirs. */
export const InviteEmail = z.string().trim().toLowerCase().max(320).pipe(z.email()).openapi({ type: "string", format: "email" });

/** A team the invitee joins on acceptance, with the team role. */
export const InviteTeamAssignmentInput = z.object({ team_id: Uuid, team_role: OrgRoleName }).openapi("InviteTeamAssignmentInput");
export const InviteTeamAssignment = z
  .object({ team_id: Uuid, team_role: z.string(), team_name: z.string() })
  .openapi("InviteTeamAssignment");
export type InviteTeamAssignment = z.infer<typeof InviteTeamAssignment>;
const TeamAssignments = z
  .array(InviteTeamAssignmentInput)
  .max(BULK_MAX_IDS)
  .refine((a) => new Set(a.map((t) => t.team_id)).size === a.length, { message: "a team may be named once" });

export const InviteStatus = z.enum(["pending", "accepted", "expired", "revoked"]);
export type InviteStatus = z.infer<typeof InviteStatus>;

/** An invite as its org sees it: never the token (which only ever travels by mail). */
export const Invite = z
  .object({
    id: Uuid,
    org_id: Uuid,
    email: z.string(),
    org_role: z.string(),
    team_assignments: z.array(InviteTeamAssignment),
    invited_by: Uuid,
    status: InviteStatus,
    expires_at: Timestamp,
    accepted_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .openapi("Invite");
export type Invite = z.infer<typeof Invite>;

export const CreateInviteBody = z
  .object({ email: InviteEmail, org_role: OrgRoleName, team_assignments: TeamAssignments.optional() })
  .openapi("CreateInviteRequest");
export type CreateInviteBody = z.infer<typeof CreateInviteBody>;

export const BulkCreateInvitesBody = z
  .object({
    emails: z.array(InviteEmail).min(1).max(BULK_MAX_IDS),
    org_role: OrgRoleName,
    team_assignments: TeamAssignments.optional(),
  })
  .openapi("BulkCreateInvitesRequest");
export type BulkCreateInvitesBody = z.infer<typeof BulkCreateInvitesBody>;

export const InviteSkipReason = z.enum(["duplicate_in_request", "already_member", "already_invited"]);
export type InviteSkipReason = z.infer<typeof InviteSkipReason>;
export const BulkCreateInvitesResult = z
  .object({ created: z.array(Invite), skipped: z.array(z.object({ email: z.string(), reason: InviteSkipReason })) })
  .openapi("BulkCreateInvitesResult");
export type BulkCreateInvitesResult = z.infer<typeof BulkCreateInvitesResult>;

export const ListInvitesQuery = PaginationQuery.extend({ status: InviteStatus.default("pending") });
export type ListInvitesQuery = z.infer<typeof ListInvitesQuery>;
export const InviteParams = OrgParams.extend({ inviteId: Uuid });

/** The token of an invite link; anything that is not one of ours is simply unknown (404). */
export const InviteTokenParams = z.object({ token: z.string().min(1).max(200) });

/** What the holder of an invite link may see before signing in. */
export const InvitePreview = z
  .object({
    email: z.string(),
    org_name: z.string(),
    org_role: z.string(),
    team_assignments: z.array(InviteTeamAssignment),
    expires_at: Timestamp,
  })
  .openapi("InvitePreview");
export type InvitePreview = z.infer<typeof InvitePreview>;

export const AcceptInviteResult = z.object({ org: Org, role: z.string() }).openapi("AcceptInviteResult");
export type AcceptInviteResult = z.infer<typeof AcceptInviteResult>;
