/** Query keys of the team tools area (API keys, webhooks); every one starts with "team". */
export const teamKeys = {
  all: ["team"] as const,
  permissions: () => ["team", "permissions"] as const,
  apiKeys: (teamId: string) => ["team", teamId, "api-keys"] as const,
  apiKeyPage: (teamId: string, page: number, perPage: number, filters: Record<string, string | undefined>) =>
    ["team", teamId, "api-keys", { page, perPage, ...filters }] as const,
  webhooks: (teamId: string) => ["team", teamId, "webhooks"] as const,
  webhookPage: (teamId: string, page: number, perPage: number) => ["team", teamId, "webhooks", "list", { page, perPage }] as const,
  webhook: (teamId: string, webhookId: string) => ["team", teamId, "webhooks", webhookId] as const,
  deliveries: (teamId: string, webhookId: string, page: number, perPage: number) =>
    ["team", teamId, "webhooks", webhookId, "deliveries", { page, perPage }] as const,
  stats: (teamId: string, webhookId: string) => ["team", teamId, "webhooks", webhookId, "stats"] as const,
};
