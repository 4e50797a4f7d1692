import { useOrgPermissions } from "../../api/permissions";
import { useUser } from "../../api/session";
import { useRoles, useOwnTeamMembership } from "./api";

export interface TeamPermissions {
  isLoading: boolean;
  /** the caller's role in the team, undefined when not a member */
  myRole: string | undefined;
  /** true when the caller holds `key` (a `team.*` key) in this team */
  can: (key: string) => boolean;
}

/**
 * What the caller may do in one team, asked as the API asks it: org owners and admins (who hold
 * `org.teams.manage`) and system admins act on every team of the org; anyone else by the
 * permissions of their team role (`GET /roles`), found from their own row of the team's members.
 */
export function useTeamPermissions(orgId: string, teamId: string): TeamPermissions {
  const user = useUser();
  const org = useOrgPermissions(orgId);
  const roles = useRoles({ staleTime: 60_000 });
  const mine = useOwnTeamMembership({ orgId, teamId, userEmail: user.email }, { staleTime: 30_000 });
  const myRole = mine.data?.data.find((m) => m.user_id === user.id)?.role;
  const granted = new Set(roles.data?.team_roles.find((r) => r.value === myRole)?.permissions ?? []);
  const orgWide = org.can("org.teams.manage");
  return {
    isLoading: org.isLoading || roles.isPending || mine.isPending,
    myRole,
    can: (key) => orgWide || granted.has(key),
  };
}
