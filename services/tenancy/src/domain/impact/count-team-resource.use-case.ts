import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { resourceDelta } from "./resource-delta";

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
