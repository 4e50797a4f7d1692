import type { ChangeRoleBody, TeamMember } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireWritableTeam, teamRankOf } from "../access/require-access";
import { rankVerdict } from "../access/rank";
import { rankOf, resolveRole } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";
import { toTeamMember } from "../members/member-view";
import { lookupUsers } from "../users";

/** Changes a team member's role under the rank rules; the last lead stays a lead (409). */
export async function changeTeamMemberRole(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; userId: string } & ChangeRoleBody,
): Promise<TeamMember> {
  const self = input.userId === ctx.actor.user_id;
  const scope = await requireWritableTeam(deps, ctx, input, self ? "team.view" : "team.members.role");
  const role = await resolveRole(deps.data.repos, "team", input.role);
  if (!role) throw errors.validation("unknown role");
  const newRole = role.value;
  const actorRank = await teamRankOf(deps, ctx, scope);
  const updated = await deps.data.write(async (repos, events) => {
    const target = await repos.teamMembers.get(scope, input.userId);
    if (!target) throw errors.notFound("team member");
    const targetRank = await rankOf(repos, "team", target.role);
    if (rankVerdict({ actorRank, targetRank, newRank: role.rank, self }) !== "allowed") throw errors.forbidden("insufficient rank");
    if (target.role === newRole) return target;
    if (target.role === "lead" && (await repos.teamMembers.countRoleLocked(scope, "lead")) <= 1) {
      throw errors.conflict("cannot change the role of the last lead");
    }
    await repos.teamMembers.setRole(scope, input.userId, newRole);
    events.event("member.role_changed", {
      org_id: scope.orgId,
      team_id: scope.teamId,
      data: { user_id: input.userId, team_id: scope.teamId, old_role: target.role, new_role: newRole },
    });
    events.audit({
      ctx,
      action: "team.member_role_changed",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team_member", id: input.userId },
      metadata: { old_role: target.role, new_role: newRole },
    });
    return { ...target, role: newRole };
  });
  const users = await lookupUsers(deps, { ids: [input.userId] });
  return toTeamMember(scope.teamId, updated, users.get(input.userId));
}
