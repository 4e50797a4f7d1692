/** Query keys of the domains area; every one starts with "domains". */
export const domainsKeys = {
  all: (orgId: string) => ["domains", orgId] as const,
  lists: (orgId: string) => ["domains", orgId, "list"] as const,
  list: (orgId: string, filters: Record<string, unknown>) => ["domains", orgId, "list", filters] as const,
  domain: (orgId: string, domainId: string) => ["domains", orgId, domainId] as const,
  history: (orgId: string, domainId: string, page: number) => ["domains", orgId, domainId, "history", page] as const,
  impact: (orgId: string, domainId: string) => ["domains", orgId, domainId, "impact"] as const,
};
