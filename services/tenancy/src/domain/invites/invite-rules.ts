import type { InviteTeamAssignment } from "@burnbox/contracts";
import type { OrgScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { orgRankOf, teamRankOf } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { resolveRole } from "../roles/resolve-role";

/**
 * The checks every invite of an org makes before anything is written: the org role and each team
 * role exist and are no higher than the inviter's own (403), and each team is the org's (404, as
 * an unknown one) and not archived (409). Returns the team assignments with their names.
 */
export async function checkInviteGrant(
  deps: TenancyDeps,
  ctx: RequestCtx,
  scope: OrgScope,
  input: { org_role: string; team_assignments?: Array<{ team_id: string; team_role: string }> | undefined },
): Promise<InviteTeamAssignment[]> {
  const repos = deps.data.repos;
  const orgRole = await resolveRole(repos, "org", input.org_role);
  if (!orgRole) throw errors.validation("unknown role");
  if (orgRole.rank > (await orgRankOf(deps, ctx, scope))) throw errors.forbidden("cannot invite with a role above your own");
  const assignments: InviteTeamAssignment[] = [];
  for (const a of input.team_assignments ?? []) {
    const teamScope = { ...scope, teamId: a.team_id };
    const team = await repos.teams.get(teamScope);
    if (!team) throw errors.notFound("team");
    if (team.is_archived) throw errors.conflict("team is archived");
    const teamRole = await resolveRole(repos, "team", a.team_role);
    if (!teamRole) throw errors.validation("unknown role");
    if (teamRole.rank > (await teamRankOf(deps, ctx, teamScope))) throw errors.forbidden("cannot invite with a role above your own");
    assignments.push({ team_id: team.id, team_role: teamRole.value, team_name: team.name });
  }
  return assignments;
}
