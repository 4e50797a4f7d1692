import { isTeamPermission, type Actor, type ListActorTeamsReply, type Permission } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { TEAM_WIDE_ORG_ROLES, isSystemAdmin, teamRolesGranting } from "./rbac";

/** Every team (with its org) in which the actor holds a team permission (`tenancy.list_actor_teams`). */
export async function listActorTeams(deps: TenancyDeps, input: { actor: Actor; permission: Permission }): Promise<ListActorTeamsReply> {
  const { actor, permission } = input;
  if (!isTeamPermission(permission)) return { teams: [] };
  const key = actor.api_key;
  if (key && !key.scopes.includes(permission)) return { teams: [] };
  const { teams } = deps.data.repos;
  const found = isSystemAdmin(actor)
    ? await teams.locateAll()
    : await teams.locateActedOnBy(actor.user_id, {
        orgRoles: TEAM_WIDE_ORG_ROLES,
        teamRoles: teamRolesGranting(permission),
        ...(key ? { onlyTeamId: key.team_id } : {}),
      });
  return { teams: found.map((t) => ({ org_id: t.orgId, team_id: t.teamId })) };
}
