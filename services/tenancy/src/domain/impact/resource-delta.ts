import type { TeamResource } from "../../data/impact.repository";

/** How an audited action moves a team's webhook or API key counter (null: not one that does). */
export function resourceDelta(action: string, metadata: Record<string, unknown>): { resource: TeamResource; delta: number } | null {
  switch (action) {
    case "webhook.created":
      return { resource: "webhooks", delta: 1 };
    case "webhook.deleted":
      return { resource: "webhooks", delta: -1 };
    case "apikey.created":
      return { resource: "apiKeys", delta: 1 };
    case "apikey.revoked":
      return { resource: "apiKeys", delta: -1 };
    case "apikey.bulk_revoked":
      return { resource: "apiKeys", delta: -(Array.isArray(metadata.key_ids) ? metadata.key_ids.length : 0) };
    default:
      return null;
  }
}
