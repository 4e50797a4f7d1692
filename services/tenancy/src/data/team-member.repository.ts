import type { TeamRole } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit";
import type { Client } from "./prisma";

/** Who belongs to a team, and with which role. */
export class TeamMemberRepository {
  constructor(private readonly db: Client) {}

  /**
   * The user's standing in one team of one org, in one query: null when the org has no such team
   * (a team of another org included), else the user's role there (null when not a member).
   */
  async standingIn(scope: TeamScope, userId: string): Promise<{ role: TeamRole | null } | null> {
    const team = await this.db.team.findFirst({
      where: { id: scope.teamId, orgId: scope.orgId },
      select: { members: { where: { userId }, select: { role: true } } },
    });
    if (!team) return null;
    // the column only ever holds TEAM_ROLES: this service is its one writer
    return { role: (team.members[0]?.role as TeamRole | undefined) ?? null };
  }
}
