import type { DomainAssignment } from "@burnbox/contracts";

type AccessLevel = DomainAssignment["access_level"];
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { Client } from "./prisma";

/** The counter of `team_resource_counts` an audit event moves. */
export type TeamResource = "webhooks" | "apiKeys";

/**
 * What a domain or team touches, from tenancy's own counters: the domain and team rows' inbox
 * counters, the analytics totals (mail and inboxes ever received), and the webhook and API key
 * counts kept from the owning services' audit events.
 */
export class ImpactRepository {
  constructor(private readonly db: Client) {}

  /**
   * Moves a team's webhook or API key counter by `delta`. Additions commute, so events handled
   * out of order (the consumer runs several at once) still add up; a counter is read as at least 0.
   */
  async adjustTeamResource(teamId: string, resource: TeamResource, delta: number): Promise<void> {
    if (delta === 0) return;
    const column = resource === "webhooks" ? "webhooks" : "api_keys";
    await this.db.$executeRawUnsafe(
      `INSERT INTO team_resource_counts (team_id, ${column}) VALUES ($1::uuid, $2::int)
       ON CONFLICT (team_id) DO UPDATE SET ${column} = team_resource_counts.${column} + $2::int`,
      teamId,
      delta,
    );
  }

  async teamResources(teamIds: string[]): Promise<Map<string, { webhooks: number; apiKeys: number }>> {
    if (teamIds.length === 0) return new Map();
    const rows = await this.db.teamResourceCount.findMany({ where: { teamId: { in: teamIds } } });
    return new Map(rows.map((r) => [r.teamId, { webhooks: Math.max(0, r.webhooks), apiKeys: Math.max(0, r.apiKeys) }]));
  }

  /** Mail and inboxes the team ever received (analytics lifetime totals). */
  async teamTotals(scope: TeamScope): Promise<{ emails: number; inboxes: number }> {
    const row = await this.db.analyticsTeamTotal.findUnique({ where: { orgId_teamId: { orgId: scope.orgId, teamId: scope.teamId } } });
    return { emails: Number(row?.emails ?? 0), inboxes: Number(row?.inboxesCreated ?? 0) };
  }

  /** Mail the org ever received on a domain (analytics per-domain days). */
  async domainEmails(scope: OrgScope, domainName: string): Promise<number> {
    const sum = await this.db.analyticsDomainDaily.aggregate({ where: { orgId: scope.orgId, domain: domainName }, _sum: { emails: true } });
    return Number(sum._sum.emails ?? 0);
  }

  /** The teams (of the domain's org) a domain is assigned to. */
  async domainAssignments(
    scope: OrgScope,
    domainId: string,
  ): Promise<Array<{ teamId: string; teamName: string; accessLevel: AccessLevel }>> {
    const rows = await this.db.domainAssignment.findMany({
      where: { domainId, domain: { orgId: scope.orgId }, team: { orgId: scope.orgId } },
      select: { teamId: true, accessLevel: true, team: { select: { name: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    // the column only ever holds AccessLevel values: tenancy is its one writer
    return rows.map((r) => ({ teamId: r.teamId, teamName: r.team.name, accessLevel: r.accessLevel as AccessLevel }));
  }

  /**
   * Moves a domain to another org: its assignments go (their teams are returned) and its active
   * inbox counter is cleared, those inboxes being deactivated with the assignments.
   */
  async transferDomain(
    scope: OrgScope,
    domainId: string,
    targetOrgId: string,
  ): Promise<{ removedTeamIds: string[]; activeInboxes: number }> {
    const domain = await this.db.domain.findFirst({ where: { id: domainId, orgId: scope.orgId }, select: { activeInboxes: true } });
    if (!domain) return { removedTeamIds: [], activeInboxes: 0 };
    const assignments = await this.db.domainAssignment.findMany({ where: { domainId }, select: { teamId: true, activeInboxes: true } });
    for (const a of assignments) {
      if (a.activeInboxes > 0) {
        await this.db.team.updateMany({
          where: { id: a.teamId },
          data: { activeInboxes: { decrement: a.activeInboxes } },
        });
        await this.db.team.updateMany({ where: { id: a.teamId, activeInboxes: { lt: 0 } }, data: { activeInboxes: 0 } });
      }
    }
    await this.db.domainAssignment.deleteMany({ where: { domainId } });
    await this.db.domain.update({ where: { id: domainId, orgId: scope.orgId }, data: { orgId: targetOrgId, activeInboxes: 0 } });
    return { removedTeamIds: assignments.map((a) => a.teamId), activeInboxes: domain.activeInboxes };
  }
}
