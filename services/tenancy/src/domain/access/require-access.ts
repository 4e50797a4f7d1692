import type { OrgPermission, TeamPermission } from "@burnbox/contracts";
import { assertAllowed, type OrgScope, type RequestCtx, type TeamScope } from "@burnbox/service-kit";
import type { TenancyDeps } from "../deps";
import { authorize } from "./authorize.use-case";

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
