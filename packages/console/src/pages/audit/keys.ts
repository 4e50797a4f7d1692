/** Query keys of the audit area; every one starts with "audit". */
export const auditKeys = {
  all: ["audit"] as const,
  orgPage: (orgId: string, page: number, perPage: number, filters: Record<string, string | undefined>) =>
    ["audit", "org", orgId, { page, perPage, ...filters }] as const,
  platformPage: (page: number, perPage: number, filters: Record<string, string | undefined>) =>
    ["audit", "platform", { page, perPage, ...filters }] as const,
};
