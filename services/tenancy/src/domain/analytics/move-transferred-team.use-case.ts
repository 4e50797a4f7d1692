import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/** A team moved to another org (system admins): its counters and series follow it, once per event. */
export async function moveTransferredTeam(deps: TenancyDeps, consumer: string, event: EventOf<"team.transferred">): Promise<void> {
  const { team_id, from_org_id, to_org_id } = event.data;
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(consumer, event.id))) return;
    await repos.analytics.teamMoved({ orgId: from_org_id, teamId: team_id }, to_org_id);
  });
}
