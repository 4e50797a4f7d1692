/** Query keys of the analytics area; every one starts with "analytics". */
export const analyticsKeys = {
  all: ["analytics"] as const,
  org: (orgId: string) => ["analytics", "org", orgId, "totals"] as const,
  orgEmails: (orgId: string, days: number) => ["analytics", "org", orgId, "emails-per-day", days] as const,
  orgInsights: (orgId: string, days: number) => ["analytics", "org", orgId, "insights", days] as const,
  orgDomains: (orgId: string) => ["analytics", "org", orgId, "domains"] as const,
  domainSeries: (orgId: string, domain: string, days: number) => ["analytics", "org", orgId, "domain-series", domain, days] as const,
  team: (teamId: string) => ["analytics", "team", teamId, "totals"] as const,
  teamEmails: (teamId: string, days: number) => ["analytics", "team", teamId, "emails-per-day", days] as const,
  teamInsights: (teamId: string, days: number) => ["analytics", "team", teamId, "insights", days] as const,
};
