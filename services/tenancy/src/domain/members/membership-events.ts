import type { ChangeEvents, TeamScope } from "@burnbox/service-kit/data";
import type { TenancyRepos } from "../../data/repositories";

/** The `team.member_added` event of a new team membership (the added user is notified, unless they added themselves). */
export async function emitTeamMemberAdded(
  repos: TenancyRepos,
  events: ChangeEvents,
  scope: TeamScope,
  member: { userId: string; role: string; addedBy: string | null },
): Promise<void> {
  const team = await repos.teams.get(scope);
  events.event("team.member_added", {
    org_id: scope.orgId,
    team_id: scope.teamId,
    data: { user_id: member.userId, team_id: scope.teamId, team_name: team?.name ?? "", role: member.role, added_by: member.addedBy },
  });
}
