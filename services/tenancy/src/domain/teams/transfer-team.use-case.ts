import type { TransferTeamResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrgTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withFreeSlug } from "../slug";
import { lookupUsers } from "../users";
import { moveTeamData } from "./move-team-data";

/**
 * Moves a team to another org (system admins): members outside the target org and the domain
 * assignments are dropped. The other services' rows of the team are moved before the answer
 * (`moveTeamData`).
 */
export async function transferTeam(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; target_org_id: string },
): Promise<TransferTeamResult> {
  const scope = await requireOrgTeam(deps, ctx, input, "org.teams.manage");
  if (input.target_org_id === scope.orgId) throw errors.validation("the team already belongs to this organization");
  const target = { orgId: input.target_org_id };
  const current = await deps.data.repos.teams.get(scope);
  if (!current) throw errors.notFound("team");
  // the team's slug may be taken in the target org: a derived one is then suffixed
  const result = await withFreeSlug({ name: current.slug }, (slug) =>
    deps.data.write(async (repos, events) => {
      const [team, targetExists] = await Promise.all([repos.teams.get(scope), repos.orgs.exists(target)]);
      if (!team) throw errors.notFound("team");
      if (!targetExists) throw errors.notFound("target organization");
      if (await repos.teams.nameTaken(target, team.name))
        throw errors.conflict("a team with this name already exists in the target organization");
      const members = await repos.teamMembers.listAll(scope);
      const targetMembers = new Set((await repos.orgMembers.listAll(target)).map((m) => m.userId));
      const keep = members.filter((m) => targetMembers.has(m.userId)).map((m) => m.userId);
      const removed = members.filter((m) => !targetMembers.has(m.userId)).map((m) => m.userId);
      const moved = await repos.teams.moveTo(scope, target.orgId, slug, keep);
      // the other services re-file the team's inboxes, webhooks and keys under the new org
      const transferred = events.event("team.transferred", {
        org_id: scope.orgId,
        team_id: scope.teamId,
        data: { team_id: scope.teamId, from_org_id: scope.orgId, to_org_id: target.orgId },
      });
      for (const userId of removed) {
        events.event("member.removed", { org_id: scope.orgId, team_id: scope.teamId, data: { user_id: userId, team_id: scope.teamId } });
      }
      events.audit({
        ctx,
        action: "team.transferred",
        org_id: scope.orgId,
        team_id: scope.teamId,
        target: { type: "team", id: scope.teamId },
        metadata: { target_org_id: target.orgId, removed_members: removed.length },
      });
      return { team: moved, removed, eventId: transferred.id };
    }),
  );
  await moveTeamData(deps, { eventId: result.eventId, teamId: scope.teamId, fromOrgId: scope.orgId, toOrgId: target.orgId });
  const users = await lookupUsers(deps, { ids: result.removed });
  return { team: result.team, removed_members: result.removed.map((id) => ({ user_id: id, email: users.get(id)?.email ?? "" })) };
}
