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

/**
 * Extensions 10: the DKIM key mail from a domain's inboxes is signed with (the inbox's outbound
 * worker): the private key travels sealed (AES-256-GCM with `encryption.key`) and is opened by the
 * caller; null when the domain is unknown or has no key yet.
 */
export const DkimKeyRequest = z.object({ domain_name: z.string() });
export const DkimKeyReply = z.object({
  key: z.object({ domain_name: z.string(), selector: z.string(), private_key_sealed: z.string() }).nullable(),
});
export type DkimKeyReply = z.infer<typeof DkimKeyReply>;

/** Tenancy: an assignment as the inbox service creates inboxes on it, and a domain's signing key for its mail out. */
export const domainAssignmentsRpc = {
  getAssignment: { name: "tenancy.get_assignment", request: GetAssignmentRequest, reply: GetAssignmentReply },
  dkimKey: { name: "tenancy.dkim_key", request: DkimKeyRequest, reply: DkimKeyReply },
} as const;
