import type { OrgPermission, TeamPermission } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { assertAllowed } from "@burnbox/service-kit/security";
import type { TenancyDeps } from "../deps";
import { authorize } from "./authorize.use-case";
import { rankOf } from "../roles/resolve-role";
import { ABOVE_EVERY_TEAM_ROLE, SYSTEM_ADMIN_RANK } from "./rank";
import { actsOnEveryTeam, isSystemAdmin } from "./rbac";

/**
 * The first line of a use case on an org: the caller holds `permission` there, or gets the
 * client's 404 (may not know the org) or 403. Returns the org as a checked scope.
 */
export async function requireOrg(deps: TenancyDeps, ctx: RequestCtx, ids: { orgId: string }, permission: OrgPermission): Promise<OrgScope> {
  assertAllowed(await authorize(deps, { actor: ctx.actor, orgId: ids.orgId, teamId: null, permission }), "organization");
  return { orgId: ids.orgId };
}

/** The same for a team in the path: a team of another org answers like an unknown one. */
export async function requireTeam(
  deps: TenancyDeps,
  ctx: RequestCtx,
  ids: { orgId: string; teamId: string },
  permission: TeamPermission,
): Promise<TeamScope> {
  assertAllowed(await authorize(deps, { actor: ctx.actor, orgId: ids.orgId, teamId: ids.teamId, permission }), "team");
  return { orgId: ids.orgId, teamId: ids.teamId };
}

/** A team route that changes the team: as `requireTeam`, and an archived team is read-only (409). */
export async function requireWritableTeam(
  deps: TenancyDeps,
  ctx: RequestCtx,
  ids: { orgId: string; teamId: string },
  permission: TeamPermission,
): Promise<TeamScope> {
  const scope = await requireTeam(deps, ctx, ids, permission);
  const standing = await deps.data.repos.teamMembers.standingIn(scope, ctx.actor.user_id);
  if (standing?.archived) throw errors.conflict("team is archived");
  return scope;
}

/** An org-level permission on one team of the path (archive, delete): the team must be the org's, else 404. */
export async function requireOrgTeam(
  deps: TenancyDeps,
  ctx: RequestCtx,
  ids: { orgId: string; teamId: string },
  permission: OrgPermission,
): Promise<TeamScope> {
  const org = await requireOrg(deps, ctx, ids, permission);
  const scope = { ...org, teamId: ids.teamId };
  if (!(await deps.data.repos.teamMembers.standingIn(scope, ctx.actor.user_id))) throw errors.notFound("team");
  return scope;
}

/** The actor's rank in the org, for the rank rules (system admins above everyone). */
export async function orgRankOf(deps: TenancyDeps, ctx: RequestCtx, scope: OrgScope): Promise<number> {
  if (isSystemAdmin(ctx.actor)) return SYSTEM_ADMIN_RANK;
  return rankOf(deps.data.repos, "org", await deps.data.repos.orgMembers.roleOf(scope, ctx.actor.user_id));
}

/** The actor's rank in a team: org owners and admins rank above every team role of their org. */
export async function teamRankOf(deps: TenancyDeps, ctx: RequestCtx, scope: TeamScope): Promise<number> {
  if (isSystemAdmin(ctx.actor)) return SYSTEM_ADMIN_RANK;
  const { orgMembers, teamMembers } = deps.data.repos;
  const [orgRole, standing] = await Promise.all([
    orgMembers.roleOf(scope, ctx.actor.user_id),
    teamMembers.standingIn(scope, ctx.actor.user_id),
  ]);
  if (actsOnEveryTeam(ctx.actor, orgRole)) return ABOVE_EVERY_TEAM_ROLE;
  return rankOf(deps.data.repos, "team", standing?.role ?? null);
}
