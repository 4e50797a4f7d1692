import type { ListTeamsQuery, Page, Team } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import { actsOnEveryTeam } from "../access/rbac";
import type { TenancyDeps } from "../deps";

/** Org owners and admins (and system admins) see every team; other members see the teams they belong to. */
export async function listTeams(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & ListTeamsQuery): Promise<Page<Team>> {
  const scope = await requireOrg(deps, ctx, input, "org.view");
  const { teams, orgMembers } = deps.data.repos;
  const visibility = actsOnEveryTeam(ctx.actor, await orgMembers.roleOf(scope, ctx.actor.user_id))
    ? { all: true as const }
    : { memberUserId: ctx.actor.user_id };
  const filter = { archived: input.archived, ...(input.q ? { q: input.q } : {}) };
  return paginate(input, {
    rows: (window) => teams.list(scope, visibility, filter, window),
    count: () => teams.count(scope, visibility, filter),
    map: (rows) => rows,
  });
}
