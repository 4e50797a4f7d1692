/**
 * Query keys of the shared, account-wide data. Each page area keeps its own keys in
 * `src/pages/<area>/keys.ts`, starting with the area's name, so invalidations never cross areas
 * by accident. Keys that start with "public" (data anyone may see) survive signing out; every
 * other query is dropped then.
 */
export const accountKeys = {
  all: ["account"] as const,
  me: () => ["account", "me"] as const,
  datetime: () => ["account", "datetime-settings"] as const,
  sessions: (page: number) => ["account", "sessions", page] as const,
  ssoIdentities: () => ["account", "sso-identities"] as const,
  ssoStatus: () => ["public", "sso-status"] as const,
};

export const workspaceKeys = {
  orgs: () => ["workspace", "orgs"] as const,
  teams: (orgId: string) => ["workspace", "orgs", orgId, "teams"] as const,
  membership: (orgId: string) => ["workspace", "orgs", orgId, "members", "me"] as const,
  roles: () => ["workspace", "roles"] as const,
  teamMembership: (orgId: string, teamId: string) => ["workspace", "orgs", orgId, "teams", teamId, "members", "me"] as const,
};

/** The org picker of a system admin's transfer of a team or domain (`GET /admin/orgs`). */
export const transferKeys = {
  orgs: (search: string) => ["transfer", "orgs", search] as const,
};
