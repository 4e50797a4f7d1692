import type { ListTeamMembersQuery, Page, TeamMember } from "@burnbox/contracts";
import { paginateList } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { toTeamMember } from "../members/member-view";
import { lookupUsers, matchesUser } from "../users";

export async function listTeamMembers(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & ListTeamMembersQuery,
): Promise<Page<TeamMember>> {
  const scope = await requireTeam(deps, ctx, input, "team.members.view");
  const rows = await deps.data.repos.teamMembers.listAll(scope, input.role ? { role: input.role } : {});
  const users = await lookupUsers(deps, { ids: rows.map((r) => r.userId) });
  const matching = rows.filter((r) => matchesUser(users.get(r.userId), input.q));
  return paginateList(input, matching, (r) => toTeamMember(scope.teamId, r, users.get(r.userId)));
}
