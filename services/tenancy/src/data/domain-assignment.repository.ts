import type { DomainAssignment } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { jsonObject, uniqueOr, type Client } from "./prisma";

type AccessLevel = DomainAssignment["access_level"];
type AssignmentRow = Prisma.DomainAssignmentGetPayload<{ include: { domain: true } }>;

function toAssignment(a: AssignmentRow): DomainAssignment {
  return {
    id: a.id,
    team_id: a.teamId,
    domain_id: a.domainId,
    domain_name: a.domain.domainName,
    // the column only ever holds AccessLevel values: this service is its one writer
    access_level: a.accessLevel as AccessLevel,
    settings: jsonObject(a.settings),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** An assignment known only by its id, with what deciding on an inbox creation needs. */
export interface AssignmentLocation {
  id: string;
  orgId: string;
  teamId: string;
  domainId: string;
  domainName: string;
  accessLevel: AccessLevel;
  domainVerified: boolean;
  teamArchived: boolean;
  /** Stored settings, from the widest layer to the narrowest. */
  settings: {
    org: Record<string, unknown>;
    domain: Record<string, unknown>;
    team: Record<string, unknown>;
    assignment: Record<string, unknown>;
  };
}

/** Which of its org's domains a team may use, and how. */
export class DomainAssignmentRepository {
  constructor(private readonly db: Client) {}

  /** A domain is assigned to a team once: a second assignment is a conflict. */
  async create(
    scope: TeamScope,
    fields: { id: string; domainId: string; accessLevel: AccessLevel; settings: Record<string, unknown> },
  ): Promise<DomainAssignment> {
    const row = await uniqueOr(
      this.db.domainAssignment.create({
        data: {
          id: fields.id,
          teamId: scope.teamId,
          domainId: fields.domainId,
          accessLevel: fields.accessLevel,
          settings: fields.settings as Prisma.InputJsonObject,
        },
        include: { domain: true },
      }),
      () => errors.conflict("domain already assigned to this team"),
    );
    return toAssignment(row);
  }

  /** The team's assignment of one domain (by the domain's id, as the path names it), with its active inbox count. */
  async get(scope: TeamScope, domainId: string): Promise<(DomainAssignment & { activeInboxes: number }) | null> {
    const row = await this.db.domainAssignment.findFirst({
      where: { teamId: scope.teamId, domainId, team: { orgId: scope.orgId } },
      include: { domain: true },
    });
    return row ? { ...toAssignment(row), activeInboxes: row.activeInboxes } : null;
  }

  async list(scope: TeamScope, window: { skip: number; take: number }): Promise<DomainAssignment[]> {
    const rows = await this.db.domainAssignment.findMany({
      where: { teamId: scope.teamId, team: { orgId: scope.orgId } },
      include: { domain: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(toAssignment);
  }

  count(scope: TeamScope): Promise<number> {
    return this.db.domainAssignment.count({ where: { teamId: scope.teamId, team: { orgId: scope.orgId } } });
  }

  async update(
    scope: TeamScope,
    domainId: string,
    changes: { accessLevel?: AccessLevel; settings?: Record<string, unknown> },
  ): Promise<DomainAssignment> {
    const row = await this.db.domainAssignment.update({
      where: { teamId_domainId: { teamId: scope.teamId, domainId } },
      data: {
        ...(changes.accessLevel ? { accessLevel: changes.accessLevel } : {}),
        ...(changes.settings ? { settings: changes.settings as Prisma.InputJsonObject } : {}),
      },
      include: { domain: true },
    });
    return toAssignment(row);
  }

  async delete(scope: TeamScope, domainId: string): Promise<void> {
    await this.db.domainAssignment.deleteMany({ where: { teamId: scope.teamId, domainId, team: { orgId: scope.orgId } } });
  }

  /** A window of the assignments of `teamIds` (teams the caller acts on), oldest first, with what the TTL cascade needs. */
  async listForTeams(
    teamIds: string[],
    window: { skip: number; take: number },
  ): Promise<Array<{ assignment: DomainAssignment; teamName: string; settings: AssignmentLocation["settings"] }>> {
    const rows = await this.db.domainAssignment.findMany({
      where: { teamId: { in: teamIds } },
      include: { domain: true, team: { include: { org: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map((a) => ({
      assignment: toAssignment(a),
      teamName: a.team.name,
      settings: {
        org: jsonObject(a.team.org.settings),
        domain: jsonObject(a.domain.settings),
        team: jsonObject(a.team.settings),
        assignment: jsonObject(a.settings),
      },
    }));
  }

  countForTeams(teamIds: string[]): Promise<number> {
    return this.db.domainAssignment.count({ where: { teamId: { in: teamIds } } });
  }

  /** The ids of the team's assignments at `level`. */
  async idsAt(scope: TeamScope, level: AccessLevel): Promise<string[]> {
    const rows = await this.db.domainAssignment.findMany({
      where: { teamId: scope.teamId, accessLevel: level, team: { orgId: scope.orgId } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /**
   * The assignments at `level` of `teamIds`, by team, leaving out the teams of orgs where the user
   * holds one of `exceptOrgRoles` (their assignments do not narrow what that user sees).
   */
  async idsAtByTeam(
    teamIds: string[],
    level: AccessLevel,
    user: { userId: string; exceptOrgRoles: readonly string[] },
  ): Promise<Map<string, string[]>> {
    const rows = await this.db.domainAssignment.findMany({
      where: {
        teamId: { in: teamIds },
        accessLevel: level,
        team: { org: { members: { none: { userId: user.userId, role: { in: [...user.exceptOrgRoles] } } } } },
      },
      select: { id: true, teamId: true },
    });
    const byTeam = new Map<string, string[]>();
    for (const r of rows) byTeam.set(r.teamId, [...(byTeam.get(r.teamId) ?? []), r.id]);
    return byTeam;
  }

  async locate(assignmentId: string): Promise<AssignmentLocation | null> {
    const a = await this.db.domainAssignment.findUnique({
      where: { id: assignmentId },
      include: { domain: true, team: { include: { org: true } } },
    });
    if (!a) return null;
    return {
      id: a.id,
      orgId: a.team.orgId,
      teamId: a.teamId,
      domainId: a.domainId,
      domainName: a.domain.domainName,
      accessLevel: a.accessLevel as AccessLevel,
      domainVerified: a.domain.status === "verified",
      teamArchived: a.team.isArchived,
      settings: {
        org: jsonObject(a.team.org.settings),
        domain: jsonObject(a.domain.settings),
        team: jsonObject(a.team.settings),
        assignment: jsonObject(a.settings),
      },
    };
  }
}
