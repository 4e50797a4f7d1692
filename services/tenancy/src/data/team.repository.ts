import type { OrgRole, Team, TeamRole } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { SlugTakenError } from "../domain/slug";
import { iso, jsonObject, uniqueOr, type Client } from "./prisma";

const withCounts = { _count: { select: { members: true, assignments: true } } } as const;
type TeamRow = Prisma.TeamGetPayload<{ include: typeof withCounts }>;

function toTeam(t: TeamRow): Team {
  return {
    id: t.id,
    org_id: t.orgId,
    name: t.name,
    slug: t.slug,
    description: t.description,
    is_archived: t.isArchived,
    archived_at: iso(t.archivedAt),
    settings: jsonObject(t.settings),
    member_count: t._count.members,
    domain_count: t._count.assignments,
    active_inboxes: t.activeInboxes,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export interface NewTeam {
  name: string;
  slug: string;
  description: string | null;
  /** The creator, who becomes the team's lead. */
  leadUserId: string;
}

/** Which teams of an org a list shows: all of them, or those the user belongs to. */
export type TeamVisibility = { all: true } | { memberUserId: string };
/** A list's filters: name substring and archived state. */
export interface TeamFilter {
  q?: string;
  archived: "false" | "true" | "all";
}

const whereVisible = (scope: OrgScope, visibility: TeamVisibility, filter: TeamFilter = { archived: "all" }): Prisma.TeamWhereInput => ({
  orgId: scope.orgId,
  ...("all" in visibility ? {} : { members: { some: { userId: visibility.memberUserId } } }),
  ...(filter.archived === "all" ? {} : { isArchived: filter.archived === "true" }),
  ...(filter.q ? { name: { contains: filter.q, mode: "insensitive" as const } } : {}),
});

export interface TeamChanges {
  name?: string;
  slug?: string;
  description?: string | null;
  settings?: Record<string, string | number | boolean>;
}

const toScope = (t: { id: string; orgId: string }): TeamScope => ({ orgId: t.orgId, teamId: t.id });
const keys = { id: true, orgId: true } as const;

/** Teams of an org, with their member, domain and inbox counts. */
export class TeamRepository {
  constructor(private readonly db: Client) {}

  /** Creates the team `scope` names with its lead; a slug taken in the org is a conflict. */
  async create(scope: TeamScope, fields: NewTeam): Promise<Team> {
    const { leadUserId, ...team } = fields;
    const row = await uniqueOr(
      this.db.team.create({
        data: { id: scope.teamId, orgId: scope.orgId, ...team, settings: {}, members: { create: { userId: leadUserId, role: "lead" } } },
        include: withCounts,
      }),
      () => new SlugTakenError("team slug already taken in this organization"),
    );
    return toTeam(row);
  }

  async get(scope: TeamScope): Promise<Team | null> {
    const row = await this.db.team.findFirst({ where: { id: scope.teamId, orgId: scope.orgId }, include: withCounts });
    return row ? toTeam(row) : null;
  }

  /** One window of the visible teams, oldest first. */
  async list(scope: OrgScope, visibility: TeamVisibility, filter: TeamFilter, window: { skip: number; take: number }): Promise<Team[]> {
    const rows = await this.db.team.findMany({
      where: whereVisible(scope, visibility, filter),
      include: withCounts,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(toTeam);
  }

  count(scope: OrgScope, visibility: TeamVisibility, filter?: TeamFilter): Promise<number> {
    return this.db.team.count({ where: whereVisible(scope, visibility, filter) });
  }

  /** A name or slug taken in the org is a conflict. */
  async update(scope: TeamScope, changes: TeamChanges): Promise<Team> {
    const row = await uniqueOr(
      this.db.team.update({ where: { id: scope.teamId, orgId: scope.orgId }, data: changes, include: withCounts }),
      () => errors.conflict("a team with this name already exists in this organization"),
    );
    return toTeam(row);
  }

  async setArchived(scope: TeamScope, archivedAt: Date | null): Promise<Team> {
    const row = await this.db.team.update({
      where: { id: scope.teamId, orgId: scope.orgId },
      data: { isArchived: archivedAt !== null, archivedAt },
      include: withCounts,
    });
    return toTeam(row);
  }

  /** The team with its memberships and assignments. */
  async delete(scope: TeamScope): Promise<void> {
    await this.db.team.deleteMany({ where: { id: scope.teamId, orgId: scope.orgId } });
  }

  /** Whether another team of the org already has this name (case-insensitive). */
  async nameTaken(scope: OrgScope, name: string, exceptTeamId?: string): Promise<boolean> {
    const row = await this.db.team.findFirst({
      where: { orgId: scope.orgId, name: { equals: name, mode: "insensitive" }, ...(exceptTeamId ? { id: { not: exceptTeamId } } : {}) },
      select: { id: true },
    });
    return row !== null;
  }

  /** Moves the team to another org: its assignments go, and the members not in `keepUserIds`. */
  async moveTo(scope: TeamScope, targetOrgId: string, slug: string, keepUserIds: string[]): Promise<Team> {
    await this.db.domainAssignment.deleteMany({ where: { teamId: scope.teamId } });
    await this.db.teamMember.deleteMany({ where: { teamId: scope.teamId, userId: { notIn: keepUserIds } } });
    const row = await uniqueOr(
      this.db.team.update({ where: { id: scope.teamId, orgId: scope.orgId }, data: { orgId: targetOrgId, slug }, include: withCounts }),
      () => new SlugTakenError("team slug already taken in the target organization"),
    );
    return toTeam(row);
  }

  /** The ids of every team of the org. */
  async idsOf(scope: OrgScope): Promise<string[]> {
    return (await this.db.team.findMany({ where: { orgId: scope.orgId }, select: { id: true } })).map((t) => t.id);
  }

  /** The names of these teams, each looked up in its own org (a team of another org is left out). */
  async namesOf(scopes: TeamScope[]): Promise<Map<string, string>> {
    if (scopes.length === 0) return new Map();
    const rows = await this.db.team.findMany({
      where: { OR: scopes.map((s) => ({ id: s.teamId, orgId: s.orgId })) },
      select: { id: true, name: true },
    });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Every team of every org (system administrators act on all of them). */
  async locateAll(): Promise<TeamScope[]> {
    return (await this.db.team.findMany({ select: keys })).map(toScope);
  }

  /**
   * The teams a user acts on: those of orgs where they hold one of `orgRoles`, and those where
   * they hold one of `teamRoles`; only `onlyTeamId` when given.
   */
  async locateActedOnBy(
    userId: string,
    grants: { orgRoles: readonly OrgRole[]; teamRoles: readonly TeamRole[]; onlyTeamId?: string },
  ): Promise<TeamScope[]> {
    const rows = await this.db.team.findMany({
      where: {
        ...(grants.onlyTeamId ? { id: grants.onlyTeamId } : {}),
        OR: [
          { org: { members: { some: { userId, role: { in: [...grants.orgRoles] } } } } },
          { members: { some: { userId, role: { in: [...grants.teamRoles] } } } },
        ],
      },
      select: keys,
    });
    return rows.map(toScope);
  }
}
