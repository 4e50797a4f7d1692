import type { OrgScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import { uniqueOr, type Client } from "./prisma";

/** One membership row: who, with which role, since when. */
export interface Membership {
  userId: string;
  role: string;
  createdAt: Date;
}

/** Who belongs to an org, and with which role. */
export class OrgMemberRepository {
  constructor(private readonly db: Client) {}

  /** The user's role in the org, or null when they are not a member. */
  async roleOf(scope: OrgScope, userId: string): Promise<string | null> {
    const row = await this.db.orgMember.findUnique({ where: { orgId_userId: { orgId: scope.orgId, userId } }, select: { role: true } });
    return row?.role ?? null;
  }

  async get(scope: OrgScope, userId: string): Promise<Membership | null> {
    return this.db.orgMember.findUnique({
      where: { orgId_userId: { orgId: scope.orgId, userId } },
      select: { userId: true, role: true, createdAt: true },
    });
  }

  /** Every member of the org, oldest first (filters by name need the users' details, joined in the use case). */
  async listAll(scope: OrgScope, filter: { role?: string } = {}): Promise<Membership[]> {
    return this.db.orgMember.findMany({
      where: { orgId: scope.orgId, ...(filter.role ? { role: filter.role } : {}) },
      select: { userId: true, role: true, createdAt: true },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    });
  }

  /** A user already in the org is a conflict. */
  async add(scope: OrgScope, userId: string, role: string): Promise<Membership> {
    return uniqueOr(
      this.db.orgMember.create({ data: { orgId: scope.orgId, userId, role }, select: { userId: true, role: true, createdAt: true } }),
      () => errors.conflict("user is already a member of this organization"),
    );
  }

  async setRole(scope: OrgScope, userId: string, role: string): Promise<void> {
    await this.db.orgMember.update({ where: { orgId_userId: { orgId: scope.orgId, userId } }, data: { role } });
  }

  /** Removes the org membership and every team membership in the org. */
  async remove(scope: OrgScope, userId: string): Promise<void> {
    await this.db.teamMember.deleteMany({ where: { userId, team: { orgId: scope.orgId } } });
    await this.db.orgMember.deleteMany({ where: { orgId: scope.orgId, userId } });
  }

  /**
   * How many members hold `role`, counted with those rows locked, so two concurrent demotions
   * of the last two owners cannot both pass the last-owner check.
   */
  async countRoleLocked(scope: OrgScope, role: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ user_id: string }>>`
      SELECT user_id FROM org_members WHERE org_id = ${scope.orgId}::uuid AND role = ${role} FOR UPDATE`;
    return rows.length;
  }
}
