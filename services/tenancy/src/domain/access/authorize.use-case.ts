import { OWN_INBOX_PERMISSIONS, type Actor, type AuthorizeReply, type Permission } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { resolveRole } from "../roles/resolve-role";
import { OWN_INBOXES_LEVEL, decide, ownInboxesOnly } from "./rbac";

export interface AuthorizeInput {
  actor: Actor;
  orgId: string;
  /** The team the permission is asked for (team permissions), checked to belong to the org. */
  teamId: string | null;
  permission: Permission;
}

/**
 * The RBAC decision every service asks for (`tenancy.authorize`): the actor's standing, then the
 * rules. An allowed permission on inboxes or mail names the team's assignments on which the
 * actor sees only their own inboxes (`own_only_assignments`).
 */
export async function authorize(deps: TenancyDeps, input: AuthorizeInput): Promise<AuthorizeReply> {
  const { actor, orgId, teamId, permission } = input;
  const repos = deps.data.repos;
  const [orgExists, orgRole, team, ownLevel] = await Promise.all([
    repos.orgs.exists({ orgId }),
    repos.orgMembers.roleOf({ orgId }, actor.user_id),
    teamId ? repos.teamMembers.standingIn({ orgId, teamId }, actor.user_id) : Promise.resolve(null),
    teamId && (OWN_INBOX_PERMISSIONS as readonly string[]).includes(permission)
      ? repos.domainAssignments.idsAt({ orgId, teamId }, OWN_INBOXES_LEVEL)
      : Promise.resolve([]),
  ]);
  const [orgGrants, teamGrants] = await Promise.all([
    resolveRole(repos, "org", orgRole).then((r) => r?.permissions ?? []),
    resolveRole(repos, "team", team?.role ?? null).then((r) => r?.permissions ?? []),
  ]);
  const verdict = decide(actor, permission, teamId, {
    orgExists,
    orgRole,
    orgGrants,
    team: teamId ? { exists: team !== null, role: team?.role ?? null, grants: teamGrants, archived: team?.archived ?? false } : null,
  });
  if (!verdict.allowed || ownLevel.length === 0 || !ownInboxesOnly(actor, orgRole, permission)) return verdict;
  return { ...verdict, own_only_assignments: ownLevel };
}
