// Query keys of the admin area (all start with "admin").
export const adminKeys = {
  all: ["admin"] as const,
  stats: () => ["admin", "stats"] as const,
  health: () => ["admin", "health"] as const,
  version: () => ["admin", "version"] as const,
  users: (q: string, page: number) => ["admin", "users", q, page] as const,
  usersAll: () => ["admin", "users"] as const,
  orgs: (q: string, page: number) => ["admin", "orgs", q, page] as const,
  orgsAll: () => ["admin", "orgs"] as const,
  platform: () => ["admin", "platform"] as const,
  mailer: () => ["admin", "config", "mailer"] as const,
  storage: () => ["admin", "config", "storage"] as const,
  ssoProviders: () => ["admin", "sso", "providers"] as const,
  ssoProvider: (pid: string) => ["admin", "sso", "providers", pid] as const,
  ssoMappings: (pid: string) => ["admin", "sso", "providers", pid, "mappings"] as const,
};
