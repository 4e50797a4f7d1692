import type { TeamScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import { uniqueOr, type Client } from "./prisma";
import type { Membership } from "./org-member.repository";

/** Who belongs to a team, and with which role. */
export class TeamMemberRepository {
  constructor(private readonly db: Client) {}

  /**
   * The user's standing in one team of one org, in one query: null when the org has no such team
   * (a team of another org included), else the user's role there (null when not a member).
   */
  async standingIn(scope: TeamScope, userId: string): Promise<{ role: string | null; archived: boolean } | null> {
    const team = await this.db.team.findFirst({
      where: { id: scope.teamId, orgId: scope.orgId },
      select: { isArchived: true, members: { where: { userId }, select: { role: true } } },
    });
    if (!team) return null;
    return { role: team.members[0]?.role ?? null, archived: team.isArchived };
  }

  async get(scope: TeamScope, userId: string): Promise<Membership | null> {
    return this.db.teamMember.findFirst({
      where: { teamId: scope.teamId, userId, team: { orgId: scope.orgId } },
      select: { userId: true, role: true, createdAt: true },
    });
  }

  async listAll(scope: TeamScope, filter: { role?: string } = {}): Promise<Membership[]> {
    return this.db.teamMember.findMany({
      where: { teamId: scope.teamId, team: { orgId: scope.orgId }, ...(filter.role ? { role: filter.role } : {}) },
      select: { userId: true, role: true, createdAt: true },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    });
  }

  async add(scope: TeamScope, userId: string, role: string): Promise<Membership> {
    return uniqueOr(
      this.db.teamMember.create({ data: { teamId: scope.teamId, userId, role }, select: { userId: true, role: true, createdAt: true } }),
      () => errors.conflict("user is already a member of this team"),
    );
  }

  async setRole(scope: TeamScope, userId: string, role: string): Promise<void> {
    await this.db.teamMember.update({ where: { teamId_userId: { teamId: scope.teamId, userId } }, data: { role } });
  }

  async remove(scope: TeamScope, userId: string): Promise<void> {
    await this.db.teamMember.deleteMany({ where: { teamId: scope.teamId, userId, team: { orgId: scope.orgId } } });
  }

  /** How many members hold `role`, with those rows locked (the last-lead check under concurrency). */
  async countRoleLocked(scope: TeamScope, role: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ user_id: string }>>`
      SELECT user_id FROM team_members WHERE team_id = ${scope.teamId}::uuid AND role = ${role} FOR UPDATE`;
    return rows.length;
  }
}
