import type { Actor, TeamScopesReply } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { permissionsOf } from "../roles/role-catalog";
import { resolveRole } from "../roles/resolve-role";
import { actsOnEveryTeam } from "./rbac";

/**
 * The scopes an API key of a team may carry (`tenancy.team_scopes`): every team permission key
 * (built-in, and those custom team roles added: such a key is a valid scope at once), and those the
 * actor holds in the team. Org owners and admins (and system admins, never through a key) hold
 * every key in every team of their org; a member holds their team role's keys; a key holds its scopes.
 */
export async function teamScopes(deps: TenancyDeps, input: { actor: Actor; orgId: string; teamId: string }): Promise<TeamScopesReply> {
  const { actor, orgId, teamId } = input;
  const repos = deps.data.repos;
  const [custom, orgExists, orgRole, team] = await Promise.all([
    repos.roles.list(),
    repos.orgs.exists({ orgId }),
    repos.orgMembers.roleOf({ orgId }, actor.user_id),
    repos.teamMembers.standingIn({ orgId, teamId }, actor.user_id),
  ]);
  const known = permissionsOf(custom).team.map((p) => p.key);
  if (!orgExists || !team) return { known, held: [] };
  let held: string[];
  if (actsOnEveryTeam(actor, orgRole)) held = known;
  else held = (await resolveRole(repos, "team", team.role))?.permissions.filter((p) => known.includes(p)) ?? [];
  if (actor.api_key) held = actor.api_key.team_id === teamId ? held.filter((p) => actor.api_key?.scopes.includes(p)) : [];
  return { known, held };
}
