import type { Actor, AuthorizeReply, Permission } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { resolveRole } from "../roles/resolve-role";
import { decide } from "./rbac";

export interface AuthorizeInput {
  actor: Actor;
  orgId: string;
  /** The team the permission is asked for (team permissions), checked to belong to the org. */
  teamId: string | null;
  permission: Permission;
}

/** The RBAC decision every service asks for (`tenancy.authorize`): the actor's standing, then the rules. */
export async function authorize(deps: TenancyDeps, input: AuthorizeInput): Promise<AuthorizeReply> {
  const { actor, orgId, teamId, permission } = input;
  const repos = deps.data.repos;
  const [orgExists, orgRole, team] = await Promise.all([
    repos.orgs.exists({ orgId }),
    repos.orgMembers.roleOf({ orgId }, actor.user_id),
    teamId ? repos.teamMembers.standingIn({ orgId, teamId }, actor.user_id) : Promise.resolve(null),
  ]);
  const [orgGrants, teamGrants] = await Promise.all([
    resolveRole(repos, "org", orgRole).then((r) => r?.permissions ?? []),
    resolveRole(repos, "team", team?.role ?? null).then((r) => r?.permissions ?? []),
  ]);
  return decide(actor, permission, teamId, {
    orgExists,
    orgRole,
    orgGrants,
    team: teamId ? { exists: team !== null, role: team?.role ?? null, grants: teamGrants, archived: team?.archived ?? false } : null,
  });
}
