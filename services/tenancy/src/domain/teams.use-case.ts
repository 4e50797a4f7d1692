import { randomUUID } from "node:crypto";
import {
  pageWindow,
  toPage,
  type Actor,
  type CreateTeamBody,
  type OrgRole,
  type Page,
  type PaginationQuery,
  type Team,
} from "@burnbox/contracts";
import { auditEvent, errors, outboxRow } from "@burnbox/service-kit";
import { isUniqueViolation } from "../data/prisma";
import { teamView } from "../data/views";
import { requirePermission } from "./access.use-case";
import { TEAM_WIDE_ORG_ROLES } from "./rbac";
import type { TenancyDeps } from "./deps";
import { slugify, withSuffix } from "./slug";

const counts = { _count: { select: { members: true, assignments: true } } } as const;

/** Creates a team in an org; the creator becomes its lead. */
export async function createTeam(deps: TenancyDeps, actor: Actor, orgId: string, body: CreateTeamBody, ip: string): Promise<Team> {
  await requirePermission(deps, actor, orgId, null, "org.teams.create", "organization");
  const base = body.slug ?? slugify(body.name);
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : withSuffix(base);
    const id = randomUUID();
    try {
      const team = await deps.db.$transaction(async (tx) => {
        await tx.team.create({ data: { id, orgId, name: body.name, slug, description: body.description ?? null, settings: {} } });
        await tx.teamMember.create({ data: { teamId: id, userId: actor.user_id, role: "lead" } });
        const event = auditEvent({
          action: "team.created",
          actor,
          org_id: orgId,
          team_id: id,
          target_type: "team",
          target_id: id,
          ip,
          metadata: { name: body.name },
        });
        await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
        return tx.team.findUniqueOrThrow({ where: { id }, include: counts });
      });
      deps.relay.kick();
      return teamView(team);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (body.slug || attempt >= 4) throw errors.conflict("team slug already taken in this organization");
    }
  }
}

/** Org owners and admins see every team; other members see the teams they belong to. */
export async function listTeams(deps: TenancyDeps, actor: Actor, orgId: string, q: PaginationQuery): Promise<Page<Team>> {
  await requirePermission(deps, actor, orgId, null, "org.view", "organization");
  const membership = await deps.db.orgMember.findUnique({ where: { orgId_userId: { orgId, userId: actor.user_id } } });
  const seesAll =
    (actor.is_system_admin && !actor.api_key) || (membership !== null && TEAM_WIDE_ORG_ROLES.includes(membership.role as OrgRole));
  const where = seesAll ? { orgId } : { orgId, members: { some: { userId: actor.user_id } } };
  const [rows, total] = await Promise.all([
    deps.db.team.findMany({ where, include: counts, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageWindow(q) }),
    deps.db.team.count({ where }),
  ]);
  return toPage(rows.map(teamView), total, q);
}
