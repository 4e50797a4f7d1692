import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** What a team may do on an assigned domain; also carried by the `tenancy.get_assignment` reply. */
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
