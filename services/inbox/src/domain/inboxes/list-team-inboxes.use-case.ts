import type { Inbox, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { authorize } from "@burnbox/service-kit/security";
import type { InboxDeps } from "../deps";

/**
 * The inboxes of one team the caller can see (on the assignments that keep the caller to their own
 * inboxes, only those), newest first; 404 outside the team, 403 without the permission.
 */
export async function listTeamInboxes(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; page: PaginationQuery },
): Promise<Page<Inbox>> {
  const { orgId, teamId } = input;
  const decision = await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor: ctx.actor, org_id: orgId, team_id: teamId, permission: "team.inboxes.view" },
    "team",
  );
  const listing = { teams: [{ orgId, teamId, ownOnlyAssignments: decision.own_only_assignments }], viewerId: ctx.actor.user_id };
  return paginate(input.page, {
    rows: (window) => deps.data.repos.inboxes.list(listing, window),
    count: () => deps.data.repos.inboxes.count(listing),
    map: (inboxes) => inboxes,
  });
}
