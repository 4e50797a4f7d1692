import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { orgRankOf, requireOrg } from "../access/require-access";
import { rankVerdict } from "../access/rank";
import { rankOf } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";

/** Removes a member from the org and from every team of it (the account stays); the last owner stays. */
export async function deactivateMember(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; userId: string },
): Promise<{ message: string }> {
  const self = input.userId === ctx.actor.user_id;
  const scope = await requireOrg(deps, ctx, input, self ? "org.view" : "org.members.remove");
  const actorRank = await orgRankOf(deps, ctx, scope);
  return deps.data.write(async (repos, events) => {
    const target = await repos.orgMembers.get(scope, input.userId);
    if (!target) throw errors.notFound("member");
    const targetRank = await rankOf(repos, "org", target.role);
    if (rankVerdict({ actorRank, targetRank, newRank: null, self }) !== "allowed") throw errors.forbidden("insufficient rank");
    if (target.role === "owner" && (await repos.orgMembers.countRoleLocked(scope, "owner")) <= 1) {
      throw errors.conflict("cannot remove the last owner");
    }
    await repos.orgMembers.remove(scope, input.userId);
    events.event("member.removed", { org_id: scope.orgId, team_id: null, data: { user_id: input.userId, team_id: null } });
    events.audit({
      ctx,
      action: "member.removed",
      org_id: scope.orgId,
      target: { type: "member", id: input.userId },
      metadata: { role: target.role },
    });
    return { message: "member removed" };
  });
}
