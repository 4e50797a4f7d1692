import type { Team } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrgTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** Restores an archived team: writable again (`team.restored`). */
export async function restoreTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<Team> {
  const scope = await requireOrgTeam(deps, ctx, input, "org.teams.manage");
  return deps.data.write(async (repos, events) => {
    const team = await repos.teams.get(scope);
    if (!team) throw errors.notFound("team");
    if (!team.is_archived) return team;
    const restored = await repos.teams.setArchived(scope, null);
    events.event("team.restored", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
    events.audit({ ctx, action: "team.restored", org_id: scope.orgId, team_id: scope.teamId, target: { type: "team", id: scope.teamId } });
    return restored;
  });
}
