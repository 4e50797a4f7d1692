import { RpcName, type Inbox, type ListInboxesQuery, type Page } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";

/**
 * Every inbox the caller can see across its teams (optionally one of them), newest first (on a
 * team's assignments that keep the caller to their own inboxes, only those);
 * `status` active or expired (past `expires_at`, even before the cleanup removes it), `q` an address substring.
 */
export async function listInboxes(deps: InboxDeps, ctx: RequestCtx, input: ListInboxesQuery): Promise<Page<Inbox>> {
  const { teams } = await askTenancy(deps, RpcName.listActorTeams, { actor: ctx.actor, permission: "team.inboxes.view" });
  const scopes = teams
    .filter((t) => !input.team_id || t.team_id === input.team_id)
    .map((t) => ({ orgId: t.org_id, teamId: t.team_id, ownOnlyAssignments: t.own_only_assignments }));
  const listing = {
    teams: scopes,
    viewerId: ctx.actor.user_id,
    status: input.status === "all" ? undefined : { is: input.status, at: new Date(deps.now()) },
    search: input.q?.trim() || undefined,
  };
  return paginate(input, {
    rows: (window) => deps.data.repos.inboxes.list(listing, window),
    count: () => deps.data.repos.inboxes.count(listing),
    map: (inboxes) => inboxes,
  });
}
