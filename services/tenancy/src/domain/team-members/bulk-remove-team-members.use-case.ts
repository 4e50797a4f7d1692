import type { BulkRemoveTeamMembersBody, BulkRemoveTeamMembersResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireTeam, teamRankOf } from "../access/require-access";
import { rankVerdict } from "../access/rank";
import type { TenancyDeps } from "../deps";
import { rankOf } from "../roles/resolve-role";

/** Removes up to 50 members in one change; a request that would remove the last lead is refused whole (409). */
export async function bulkRemoveTeamMembers(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & BulkRemoveTeamMembersBody,
): Promise<BulkRemoveTeamMembersResult> {
  const scope = await requireTeam(deps, ctx, input, "team.members.manage");
  const actorRank = await teamRankOf(deps, ctx, scope);
  return deps.data.write(async (repos, events) => {
    const leads = await repos.teamMembers.countRoleLocked(scope, "lead");
    const members = new Map((await repos.teamMembers.listAll(scope)).map((m) => [m.userId, m]));
    const result: BulkRemoveTeamMembersResult = { removed: 0, skipped: [] };
    const removing: Array<{ userId: string; role: string }> = [];
    for (const userId of new Set(input.user_ids)) {
      const target = members.get(userId);
      if (!target) result.skipped.push({ user_id: userId, reason: "not_member" });
      else if (
        rankVerdict({
          actorRank,
          targetRank: await rankOf(repos, "team", target.role),
          newRank: null,
          self: userId === ctx.actor.user_id,
        }) !== "allowed"
      ) {
        result.skipped.push({ user_id: userId, reason: "rank_too_low" });
      } else removing.push({ userId, role: target.role });
    }
    if (leads > 0 && removing.filter((r) => r.role === "lead").length >= leads) throw errors.conflict("cannot remove the last lead");
    for (const r of removing) {
      await repos.teamMembers.remove(scope, r.userId);
      events.event("member.removed", { org_id: scope.orgId, team_id: scope.teamId, data: { user_id: r.userId, team_id: scope.teamId } });
      events.audit({
        ctx,
        action: "team.member_removed",
        org_id: scope.orgId,
        team_id: scope.teamId,
        target: { type: "team_member", id: r.userId },
        metadata: { role: r.role, bulk: true },
      });
    }
    result.removed = removing.length;
    return result;
  });
}
