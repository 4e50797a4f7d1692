import type { AddTeamMemberBody, TeamMember } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireWritableTeam, teamRankOf } from "../access/require-access";
import { resolveRole } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";
import { toTeamMember } from "../members/member-view";
import { emitTeamMemberAdded } from "../members/membership-events";
import { lookupUsers } from "../users";

/** Adds a member of the org to the team (by user id or email), with a role no higher than the actor's. */
export async function addTeamMember(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & AddTeamMemberBody,
): Promise<TeamMember> {
  const scope = await requireWritableTeam(deps, ctx, input, "team.members.manage");
  const teamRole = await resolveRole(deps.data.repos, "team", input.role);
  if (!teamRole) throw errors.validation("unknown role");
  if (teamRole.rank > (await teamRankOf(deps, ctx, scope))) throw errors.forbidden("cannot grant a role above your own");
  const found = await lookupUsers(deps, input.user_id ? { ids: [input.user_id] } : { emails: [input.email ?? ""] });
  const user = [...found.values()][0];
  // only members of the org may join its teams; anyone else answers like an unknown user
  if (!user || !(await deps.data.repos.orgMembers.get(scope, user.id))) throw errors.notFound("user");
  const role = teamRole.value;
  return deps.data.write(async (repos, events) => {
    const row = await repos.teamMembers.add(scope, user.id, role);
    await emitTeamMemberAdded(repos, events, scope, { userId: user.id, role, addedBy: ctx.actor.user_id });
    events.audit({
      ctx,
      action: "team.member_added",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team_member", id: user.id },
      metadata: { role, email: user.email },
    });
    return toTeamMember(scope.teamId, row, user);
  });
}
