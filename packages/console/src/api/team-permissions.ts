import { useOrgPermissions } from "./permissions";
import { workspaceKeys } from "./keys";
import { useApiQuery } from "./query";
import { useUser } from "./session";

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
 * Shared by the areas that offer a team's actions (the teams area, the inbox pages, snapshots).
 */
export function useTeamPermissions(orgId: string, teamId: string): TeamPermissions {
  const user = useUser();
  const org = useOrgPermissions(orgId);
  const roles = useApiQuery(workspaceKeys.roles(), (bb, signal) => bb.api.GET("/roles", { signal }), { staleTime: 60_000 });
  const mine = useApiQuery(
    workspaceKeys.teamMembership(orgId, teamId),
    (bb, signal) =>
      bb.api.GET("/orgs/{orgId}/teams/{teamId}/members", {
        params: { path: { orgId, teamId }, query: { q: user.email, per_page: 100 } },
        signal,
      }),
    { staleTime: 30_000, enabled: orgId !== "" && teamId !== "" },
  );
  const myRole = mine.data?.data.find((m) => m.user_id === user.id)?.role;
  const granted = new Set(roles.data?.team_roles.find((r) => r.value === myRole)?.permissions ?? []);
  const orgWide = org.can("org.teams.manage");
  return {
    isLoading: org.isLoading || roles.isPending || mine.isPending,
    myRole,
    can: (key) => orgWide || granted.has(key),
  };
}
