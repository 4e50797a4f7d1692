import type { ChangeRoleBody, Member } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { orgRankOf, requireOrg } from "../access/require-access";
import { rankVerdict } from "../access/rank";
import { rankOf, resolveRole } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";
import { lookupUsers } from "../users";
import { toMember } from "./member-view";

/** Changes a member's org role under the rank rules; the last owner stays an owner (409). */
export async function changeMemberRole(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; userId: string } & ChangeRoleBody,
): Promise<Member> {
  const self = input.userId === ctx.actor.user_id;
  // anyone may lower their own role: only others' roles need org.members.role
  const scope = await requireOrg(deps, ctx, input, self ? "org.view" : "org.members.role");
  const role = await resolveRole(deps.data.repos, "org", input.role);
  if (!role) throw errors.validation("unknown role");
  const newRole = role.value;
  const actorRank = await orgRankOf(deps, ctx, scope);
  const updated = await deps.data.write(async (repos, events) => {
    const target = await repos.orgMembers.get(scope, input.userId);
    if (!target) throw errors.notFound("member");
    const targetRank = await rankOf(repos, "org", target.role);
    if (rankVerdict({ actorRank, targetRank, newRank: role.rank, self }) !== "allowed") throw errors.forbidden("insufficient rank");
    if (target.role === newRole) return target;
    if (target.role === "owner" && (await repos.orgMembers.countRoleLocked(scope, "owner")) <= 1) {
      throw errors.conflict("cannot change the role of the last owner");
    }
    await repos.orgMembers.setRole(scope, input.userId, newRole);
    events.event("member.role_changed", {
      org_id: scope.orgId,
      team_id: null,
      data: { user_id: input.userId, team_id: null, old_role: target.role, new_role: newRole },
    });
    events.audit({
      ctx,
      action: "member.role_changed",
      org_id: scope.orgId,
      target: { type: "member", id: input.userId },
      metadata: { old_role: target.role, new_role: newRole },
    });
    return { ...target, role: newRole };
  });
  const users = await lookupUsers(deps, { ids: [input.userId] });
  return toMember(scope.orgId, updated, users.get(input.userId));
}
