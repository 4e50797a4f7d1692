import { z } from "../zod";
import { TeamParams, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";
import { PaginationQuery } from "../pagination";
import { TierSettings } from "./orgs.schemas";

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

export const AssignDomainBody = z
  .object({ domain_id: Uuid, access_level: AccessLevel.default("full"), settings: TierSettings.optional() })
  .openapi("AssignDomainRequest");
export type AssignDomainBody = z.infer<typeof AssignDomainBody>;

export const AssignmentParams = TeamParams.extend({ domainId: Uuid });
export const ListAssignmentsQuery = PaginationQuery;
export const UpdateAssignmentBody = atLeastOneField(
  z.object({ access_level: AccessLevel.optional(), settings: TierSettings.optional() }),
).openapi("UpdateDomainAssignmentRequest");
export type UpdateAssignmentBody = z.infer<typeof UpdateAssignmentBody>;

/** One of the caller's usable domains: an assignment with its team's name and the resolved TTL limits. */
export const MyDomain = DomainAssignment.extend({
  team_name: z.string(),
  default_ttl: z.string(),
  max_ttl: z.string(),
}).openapi("MyDomain");
export type MyDomain = z.infer<typeof MyDomain>;
