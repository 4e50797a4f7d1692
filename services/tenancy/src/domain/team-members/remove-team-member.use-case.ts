import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireTeam, teamRankOf } from "../access/require-access";
import { rankVerdict } from "../access/rank";
import { rankOf } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";

/** Removes a member from the team under the rank rules; the last lead stays (409). */
export async function removeTeamMember(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; userId: string },
): Promise<undefined> {
  const self = input.userId === ctx.actor.user_id;
  const scope = await requireTeam(deps, ctx, input, self ? "team.view" : "team.members.manage");
  const actorRank = await teamRankOf(deps, ctx, scope);
  await deps.data.write(async (repos, events) => {
    const target = await repos.teamMembers.get(scope, input.userId);
    if (!target) throw errors.notFound("team member");
    const targetRank = await rankOf(repos, "team", target.role);
    if (rankVerdict({ actorRank, targetRank, newRank: null, self }) !== "allowed") throw errors.forbidden("insufficient rank");
    if (target.role === "lead" && (await repos.teamMembers.countRoleLocked(scope, "lead")) <= 1)
      throw errors.conflict("cannot remove the last lead");
    await repos.teamMembers.remove(scope, input.userId);
    events.event("member.removed", { org_id: scope.orgId, team_id: scope.teamId, data: { user_id: input.userId, team_id: scope.teamId } });
    events.audit({
      ctx,
      action: "team.member_removed",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team_member", id: input.userId },
      metadata: { role: target.role },
    });
  });
  return undefined;
}
