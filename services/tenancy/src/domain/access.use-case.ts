import {
  isTeamPermission,
  parseDurationMs,
  type Actor,
  type AuthorizeReply,
  type GetAssignmentReply,
  type ListActorTeamsReply,
  type OrgRole,
  type Permission,
  type TeamRole,
} from "@burnbox/contracts";
import { assertAllowed } from "@burnbox/service-kit";
import { DEFAULT_ORG_SETTINGS, jsonObject } from "../data/views";
import type { TenancyDeps } from "./deps";
import { TEAM_WIDE_ORG_ROLES, decide, teamRolesGranting } from "./rbac";

export async function authorize(
  deps: TenancyDeps,
  actor: Actor,
  orgId: string,
  teamId: string | null,
  permission: Permission,
): Promise<AuthorizeReply> {
  const [org, orgMember, team] = await Promise.all([
    deps.db.org.findUnique({ where: { id: orgId }, select: { id: true } }),
    deps.db.orgMember.findUnique({ where: { orgId_userId: { orgId, userId: actor.user_id } } }),
    teamId
      ? deps.db.team.findFirst({
          where: { id: teamId, orgId },
          select: { id: true, members: { where: { userId: actor.user_id }, select: { role: true } } },
        })
      : Promise.resolve(null),
  ]);
  return decide(actor, permission, teamId, {
    orgExists: org !== null,
    orgRole: (orgMember?.role as OrgRole | undefined) ?? null,
    team: teamId ? { exists: team !== null, role: (team?.members[0]?.role as TeamRole | undefined) ?? null } : null,
  });
}

/** Throws the client's 404/403 when the actor lacks `permission`. */
export async function requirePermission(
  deps: TenancyDeps,
  actor: Actor,
  orgId: string,
  teamId: string | null,
  permission: Permission,
  what: string,
): Promise<void> {
  assertAllowed(await authorize(deps, actor, orgId, teamId, permission), what);
}

/** Every team (with its org) in which the actor holds a team permission. */
export async function listActorTeams(deps: TenancyDeps, actor: Actor, permission: Permission): Promise<ListActorTeamsReply> {
  if (!isTeamPermission(permission)) return { teams: [] };
  const key = actor.api_key;
  if (key && !key.scopes.includes(permission)) return { teams: [] };
  const keyFilter = key ? { id: key.team_id } : {};
  if (actor.is_system_admin && !key) {
    const all = await deps.db.team.findMany({ select: { id: true, orgId: true } });
    return { teams: all.map((t) => ({ org_id: t.orgId, team_id: t.id })) };
  }
  const teams = await deps.db.team.findMany({
    where: {
      ...keyFilter,
      OR: [
        { org: { members: { some: { userId: actor.user_id, role: { in: [...TEAM_WIDE_ORG_ROLES] } } } } },
        { members: { some: { userId: actor.user_id, role: { in: teamRolesGranting(permission) } } } },
      ],
    },
    select: { id: true, orgId: true },
  });
  return { teams: teams.map((t) => ({ org_id: t.orgId, team_id: t.id })) };
}

const seconds = (v: unknown): number | null => {
  if (typeof v !== "string") return null;
  try {
    return Math.floor(parseDurationMs(v) / 1000);
  } catch {
    return null;
  }
};

/** An assignment as inbox creation needs it, with TTL limits resolved org -> domain -> team -> assignment. */
export async function getAssignment(deps: TenancyDeps, assignmentId: string): Promise<GetAssignmentReply> {
  const a = await deps.db.domainAssignment.findUnique({
    where: { id: assignmentId },
    include: { domain: true, team: { include: { org: true } } },
  });
  if (!a) return { assignment: null };
  const layers = [
    { ...DEFAULT_ORG_SETTINGS, ...jsonObject(a.team.org.settings) },
    jsonObject(a.domain.settings),
    jsonObject(a.team.settings),
    jsonObject(a.settings),
  ];
  let defaultTtl: number | null = null;
  let maxTtl: number | null = null;
  for (const layer of layers) {
    defaultTtl = seconds(layer.default_inbox_ttl) ?? defaultTtl;
    maxTtl = seconds(layer.max_inbox_ttl) ?? maxTtl;
  }
  return {
    assignment: {
      id: a.id,
      org_id: a.team.orgId,
      team_id: a.teamId,
      domain_id: a.domainId,
      domain_name: a.domain.domainName,
      access_level: a.accessLevel as "full" | "create_inbox" | "read_only",
      domain_verified: a.domain.status === "verified",
      team_archived: a.team.isArchived,
      default_ttl_seconds: defaultTtl,
      max_ttl_seconds: maxTtl,
    },
  };
}
