import { z } from "../zod";
import { AccessLevel } from "./domain-assignments.schemas";

export const GetAssignmentRequest = z.object({ assignment_id: z.string().uuid() });
export const GetAssignmentReply = z.object({
  assignment: z
    .object({
      id: z.string().uuid(),
      org_id: z.string().uuid(),
      team_id: z.string().uuid(),
      domain_id: z.string().uuid(),
      domain_name: z.string(),
      access_level: AccessLevel,
      domain_verified: z.boolean(),
      team_archived: z.boolean(),
      default_ttl_seconds: z.number().int().nullable(),
      max_ttl_seconds: z.number().int().nullable(),
      /** Active inboxes the domain may hold: the smallest `max_inboxes_per_domain` of org, domain, team and assignment. */
      max_inboxes_per_domain: z.number().int().positive(),
      /** Extensions 10: the org's `outbound.allowed_recipients`, for mail sent from the domain's inboxes. */
      outbound_allowed_recipients: z.array(z.string()).optional(),
    })
    .nullable(),
});
export type GetAssignmentReply = z.infer<typeof GetAssignmentReply>;

/** Tenancy: an assignment as the inbox service creates inboxes on it. */
export const domainAssignmentsRpc = {
  getAssignment: { name: "tenancy.get_assignment", request: GetAssignmentRequest, reply: GetAssignmentReply },
} as const;
