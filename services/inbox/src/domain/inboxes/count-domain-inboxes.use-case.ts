import type { DomainInboxCountsReply } from "@burnbox/contracts";
import type { InboxDeps } from "../deps";

/** How many inboxes live on some of an org's domains (a team's, with `teamId`), for tenancy's impact and delete checks. */
export async function countDomainInboxes(
  deps: InboxDeps,
  input: { orgId: string; domainIds: string[]; teamId: string | null },
): Promise<DomainInboxCountsReply> {
  const domainIds = [...new Set(input.domainIds)];
  if (domainIds.length === 0) return { counts: [] };
  const counts = await deps.data.repos.inboxes.countOnDomains({ orgId: input.orgId }, domainIds, input.teamId, new Date(deps.now()));
  return {
    counts: domainIds.map((id) => ({
      domain_id: id,
      active_inboxes: counts.get(id)?.active ?? 0,
      total_inboxes: counts.get(id)?.total ?? 0,
    })),
  };
}
