import type { Page, PaginationQuery, Team } from "@burnbox/contracts";
import { paginate, type RequestCtx } from "@burnbox/service-kit";
import { requireOrg } from "../access/require-access";
import { actsOnEveryTeam } from "../access/rbac";
import type { TenancyDeps } from "../deps";

/** Org owners and admins (and system admins) see every team; other members see the teams they belong to. */
export async function listTeams(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & PaginationQuery): Promise<Page<Team>> {
  const scope = await requireOrg(deps, ctx, input, "org.view");
  const { teams, orgMembers } = deps.data.repos;
  const visibility = actsOnEveryTeam(ctx.actor, await orgMembers.roleOf(scope, ctx.actor.user_id))
    ? { all: true as const }
    : { memberUserId: ctx.actor.user_id };
  return paginate(input, {
    rows: (window) => teams.list(scope, visibility, window),
    count: () => teams.count(scope, visibility),
    map: (rows) => rows,
  });
}
