import type { Team, UpdateTeamBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireWritableTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { cascadeProblem } from "../settings/ttl-cascade";

/** Renames a team, or changes its description or settings (merged; a TTL above the org's maximum is 400). */
export async function updateTeam(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & UpdateTeamBody,
): Promise<Team> {
  const scope = await requireWritableTeam(deps, ctx, input, "team.settings.manage");
  return deps.data.write(async (repos, events) => {
    const [team, org] = await Promise.all([repos.teams.get(scope), repos.orgs.get(scope)]);
    if (!team || !org) throw errors.notFound("team");
    if (input.name !== undefined && (await repos.teams.nameTaken(scope, input.name, scope.teamId))) {
      throw errors.conflict("a team with this name already exists in this organization");
    }
    const settings = input.settings ? { ...team.settings, ...input.settings } : undefined;
    if (settings) {
      const problem = cascadeProblem(settings, [withOrgDefaults(org.settings)]);
      if (problem) throw errors.validation(problem);
    }
    const updated = await repos.teams.update(scope, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(settings ? { settings } : {}),
    });
    events.audit({
      ctx,
      action: "team.updated",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team", id: scope.teamId, name: updated.name },
      metadata: { fields: Object.keys(input).filter((k) => k !== "orgId" && k !== "teamId") },
    });
    return updated;
  });
}
