/** Query keys of the orgs area; every one starts with "orgs". */
export const orgsKeys = {
  all: ["orgs"] as const,
  org: (orgId: string) => ["orgs", orgId] as const,
  settings: (orgId: string) => ["orgs", orgId, "settings"] as const,
  members: (orgId: string) => ["orgs", orgId, "members"] as const,
  memberPage: (orgId: string, page: number, perPage: number, filters: Record<string, string | undefined>) =>
    ["orgs", orgId, "members", { page, perPage, ...filters }] as const,
  invites: (orgId: string) => ["orgs", orgId, "invites"] as const,
  invitePage: (orgId: string, page: number, perPage: number, status: string) =>
    ["orgs", orgId, "invites", { page, perPage, status }] as const,
  roles: () => ["orgs", "roles"] as const,
};
