import { z } from "../zod";
import { MoveTeamReply, MoveTeamRequest } from "../shared/team-move.schemas";

export const GetInboxAccessRequest = z.object({ inbox_id: z.string().uuid() });
export const GetInboxAccessReply = z.object({
  inbox: z
    .object({
      id: z.string().uuid(),
      org_id: z.string().uuid(),
      team_id: z.string().uuid(),
      domain_assignment_id: z.string().uuid(),
      created_by: z.string().uuid(),
      private: z.boolean(),
      is_active: z.boolean(),
    })
    .nullable(),
});
export type GetInboxAccessReply = z.infer<typeof GetInboxAccessReply>;
/**
 * Tenancy asks the inbox service how many inboxes live on some of an org's domains (only a team's,
 * with `team_id`): the domain impact and the delete checks read them where they are kept.
 * Active: not deactivated and not past `expires_at`; total: every inbox still stored.
 */
export const DomainInboxCountsRequest = z.object({
  org_id: z.string().uuid(),
  domain_ids: z.array(z.string().uuid()).max(100),
  team_id: z.string().uuid().nullable(),
});
export const DomainInboxCountsReply = z.object({
  counts: z.array(z.object({ domain_id: z.string().uuid(), active_inboxes: z.number().int(), total_inboxes: z.number().int() })),
});
export type DomainInboxCountsReply = z.infer<typeof DomainInboxCountsReply>;
/**
 * Tenancy has the inbox service deactivate the old org's inboxes on a transferred domain before it
 * answers the transfer; claimed under the `domain.transferred` event's id, which is then a no-op.
 */
export const DeactivateDomainInboxesRequest = z.object({
  event_id: z.string().uuid(),
  domain_id: z.string().uuid(),
  from_org_id: z.string().uuid(),
});
export const DeactivateDomainInboxesReply = z.object({});

/** The inbox service: an inbox's access facts, inbox counts per domain, and the moves tenancy waits for. */
export const inboxesRpc = {
  getInboxAccess: { name: "inbox.get_inbox_access", request: GetInboxAccessRequest, reply: GetInboxAccessReply },
  domainInboxCounts: { name: "inbox.domain_inbox_counts", request: DomainInboxCountsRequest, reply: DomainInboxCountsReply },
  moveTeamInboxes: { name: "inbox.move_team", request: MoveTeamRequest, reply: MoveTeamReply },
  deactivateDomainInboxes: {
    name: "inbox.deactivate_domain_inboxes",
    request: DeactivateDomainInboxesRequest,
    reply: DeactivateDomainInboxesReply,
  },
} as const;
