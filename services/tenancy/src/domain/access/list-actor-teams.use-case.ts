import { OWN_INBOX_PERMISSIONS, isTeamPermission, type Actor, type ListActorTeamsReply, type Permission } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { OWN_INBOXES_LEVEL, TEAM_WIDE_ORG_ROLES, isSystemAdmin, teamRolesGranting } from "./rbac";

/**
 * Every team (with its org) in which the actor holds a team permission (`tenancy.list_actor_teams`);
 * for a permission on inboxes or mail, each with the assignments on which the actor sees only
 * their own inboxes (as `tenancy.authorize` names them).
 */
export async function listActorTeams(deps: TenancyDeps, input: { actor: Actor; permission: Permission }): Promise<ListActorTeamsReply> {
  const { actor, permission } = input;
  if (!isTeamPermission(permission)) return { teams: [] };
  const key = actor.api_key;
  if (key && !key.scopes.includes(permission)) return { teams: [] };
  const { teams, domainAssignments } = deps.data.repos;
  const found = isSystemAdmin(actor)
    ? await teams.locateAll()
    : await teams.locateActedOnBy(actor.user_id, {
        orgRoles: TEAM_WIDE_ORG_ROLES,
        teamRoles: teamRolesGranting(permission),
        ...(key ? { onlyTeamId: key.team_id } : {}),
      });
  // org owners and admins (and system admins) see every inbox: their orgs' assignments narrow nothing
  const ownOnly =
    found.length > 0 && !isSystemAdmin(actor) && OWN_INBOX_PERMISSIONS.includes(permission)
      ? await domainAssignments.idsAtByTeam(
          found.map((t) => t.teamId),
          OWN_INBOXES_LEVEL,
          { userId: actor.user_id, exceptOrgRoles: TEAM_WIDE_ORG_ROLES },
        )
      : new Map<string, string[]>();
  return {
    teams: found.map((t) => {
      const own = ownOnly.get(t.teamId);
      return { org_id: t.orgId, team_id: t.teamId, ...(own ? { own_only_assignments: own } : {}) };
    }),
  };
}
