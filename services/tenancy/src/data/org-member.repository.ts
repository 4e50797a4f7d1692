import type { OrgRole } from "@burnbox/contracts";
import type { OrgScope } from "@burnbox/service-kit";
import type { Client } from "./prisma";

/** Who belongs to an org, and with which role. */
export class OrgMemberRepository {
  constructor(private readonly db: Client) {}

  /** The user's role in the org, or null when they are not a member. */
  async roleOf(scope: OrgScope, userId: string): Promise<OrgRole | null> {
    const row = await this.db.orgMember.findUnique({ where: { orgId_userId: { orgId: scope.orgId, userId } }, select: { role: true } });
    // the column only ever holds ORG_ROLES: this service is its one writer
    return (row?.role as OrgRole | undefined) ?? null;
  }
}
