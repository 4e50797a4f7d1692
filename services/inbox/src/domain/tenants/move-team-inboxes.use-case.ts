import { moveTeamOnce, type TeamTransfer } from "@burnbox/tenant-removal";
import type { InboxDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its inboxes are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`). The
 * move commits no event; the repository records it, and the intakes drop their cached recipients,
 * which name the old org (RECIPIENT_CHANGES).
 */
export async function moveTeamInboxes(deps: InboxDeps, input: TeamTransfer): Promise<void> {
  await moveTeamOnce(deps.data, input, async (repos, scope, toOrgId) => {
    await repos.inboxes.moveTeam(scope, toOrgId);
    // its mail snapshots go with it (extensions section 12)
    await repos.snapshots.moveTeam(scope, toOrgId);
  });
}
