import type { Actor, AuthorizeReply, Permission } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
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
  const { orgs, orgMembers, teamMembers } = deps.data.repos;
  const [orgExists, orgRole, team] = await Promise.all([
    orgs.exists({ orgId }),
    orgMembers.roleOf({ orgId }, actor.user_id),
    teamId ? teamMembers.standingIn({ orgId, teamId }, actor.user_id) : Promise.resolve(null),
  ]);
  return decide(actor, permission, teamId, {
    orgExists,
    orgRole,
    team: teamId ? { exists: team !== null, role: team?.role ?? null, archived: team?.archived ?? false } : null,
  });
}
