import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { requireTeam } from "../access/require-access";

/** The caller leaves a team; the last lead cannot (409). */
export async function leaveTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<undefined> {
  const scope = await requireTeam(deps, ctx, input, "team.view");
  await deps.data.write(async (repos, events) => {
    const me = await repos.teamMembers.get(scope, ctx.actor.user_id);
    if (!me) throw errors.notFound("team membership");
    if (me.role === "lead" && (await repos.teamMembers.countRoleLocked(scope, "lead")) <= 1)
      throw errors.conflict("the last lead cannot leave the team");
    await repos.teamMembers.remove(scope, ctx.actor.user_id);
    events.event("member.removed", {
      org_id: scope.orgId,
      team_id: scope.teamId,
      data: { user_id: ctx.actor.user_id, team_id: scope.teamId },
    });
    events.audit({
      ctx,
      action: "team.member_left",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team_member", id: ctx.actor.user_id },
    });
  });
  return undefined;
}
