import type { Team } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrgTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** Archives a team: read-only from now on (the inbox, dispatcher and identity services learn it from `team.archived`). */
export async function archiveTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<Team> {
  const scope = await requireOrgTeam(deps, ctx, input, "org.teams.manage");
  return deps.data.write(async (repos, events) => {
    const team = await repos.teams.get(scope);
    if (!team) throw errors.notFound("team");
    if (team.is_archived) return team;
    const archived = await repos.teams.setArchived(scope, new Date(deps.now()));
    events.event("team.archived", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
    events.audit({ ctx, action: "team.archived", org_id: scope.orgId, team_id: scope.teamId, target: { type: "team", id: scope.teamId } });
    return archived;
  });
}
