import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/**
 * A deleted org's aggregates go with it; a deleted team's inboxes went with it (no per-inbox
 * events), so it has none active, while its lifetime counts stay in its org's totals.
 */
export async function forgetDeletedTenant(
  deps: TenancyDeps,
  consumer: string,
  event: EventOf<"org.deleted"> | EventOf<"team.deleted">,
): Promise<void> {
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(consumer, event.id))) return;
    if (event.type === "org.deleted") return repos.analytics.orgDeleted({ orgId: event.data.org_id });
    if (event.org_id) await repos.analytics.teamDeleted({ orgId: event.org_id, teamId: event.data.team_id });
  });
}
