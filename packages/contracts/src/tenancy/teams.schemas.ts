import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { Slug, TenantName } from "./orgs.schemas";

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
