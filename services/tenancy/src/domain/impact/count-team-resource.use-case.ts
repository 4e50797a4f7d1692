import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
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

/** Keeps the impact counters from the owning services' audit events, once per event. */
export async function countTeamResource(deps: TenancyDeps, input: { consumer: string; event: EventOf<"audit.recorded"> }): Promise<void> {
  const { event } = input;
  const change = resourceDelta(event.data.action, event.data.metadata);
  if (!change || !event.team_id || change.delta === 0) return;
  const teamId = event.team_id;
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, event.id))) return;
    await repos.impact.adjustTeamResource(teamId, change.resource, change.delta);
  });
}
