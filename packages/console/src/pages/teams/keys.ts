/** Query keys of the teams area; every one starts with "teams" (the header's team list is workspaceKeys.teams). */
export const teamsKeys = {
  all: ["teams"] as const,
  lists: (orgId: string) => ["teams", orgId, "list"] as const,
  list: (orgId: string, filters: Record<string, unknown>) => ["teams", orgId, "list", filters] as const,
  team: (orgId: string, teamId: string) => ["teams", orgId, teamId] as const,
  impact: (orgId: string, teamId: string) => ["teams", orgId, teamId, "impact"] as const,
  members: (orgId: string, teamId: string) => ["teams", orgId, teamId, "members"] as const,
  memberPage: (orgId: string, teamId: string, filters: Record<string, unknown>) => ["teams", orgId, teamId, "members", filters] as const,
  assignments: (orgId: string, teamId: string) => ["teams", orgId, teamId, "domains"] as const,
  verifiedDomains: (orgId: string) => ["teams", orgId, "verified-domains"] as const,
  roles: () => ["teams", "roles"] as const,
};
