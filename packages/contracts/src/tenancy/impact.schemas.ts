import { z } from "../zod";
import { Uuid } from "../shared/common.schemas";
import { AccessLevel } from "./domain-assignments.schemas";
import { Domain } from "./domains.schemas";

/** What deleting (or transferring) a domain would touch, from tenancy's own counters. */
export const DomainImpact = z
  .object({
    active_inboxes: z.number().int(),
    total_inboxes: z.number().int(),
    total_emails: z.number().int(),
    assignments: z.array(z.object({ team_id: Uuid, team_name: z.string(), access_level: AccessLevel })),
    /** Webhooks of the teams the domain is assigned to. */
    webhooks_affected: z.number().int(),
  })
  .openapi("DomainImpact");
export type DomainImpact = z.infer<typeof DomainImpact>;

/** What deleting or archiving a team would touch, from tenancy's own counters. */
export const TeamImpact = z
  .object({
    member_count: z.number().int(),
    inbox_count: z.number().int(),
    active_inbox_count: z.number().int(),
    email_count: z.number().int(),
    domain_assignment_count: z.number().int(),
    webhook_count: z.number().int(),
    api_key_count: z.number().int(),
  })
  .openapi("TeamImpact");
export type TeamImpact = z.infer<typeof TeamImpact>;

export const TransferDomainBody = z.object({ target_org_id: Uuid }).openapi("TransferDomainRequest");
export type TransferDomainBody = z.infer<typeof TransferDomainBody>;
export const TransferDomainResult = z
  .object({ domain: Domain, removed_assignments: z.number().int(), deactivated_inboxes: z.number().int() })
  .openapi("TransferDomainResult");
export type TransferDomainResult = z.infer<typeof TransferDomainResult>;
