import { moveTeamOnce, type TeamTransfer } from "@burnbox/service-kit";
import type { InboxDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its inboxes are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`). The
 * move commits no event, so it tells the intakes itself (their cached recipients name the old org).
 */
export async function moveTeamInboxes(deps: InboxDeps, input: TeamTransfer): Promise<void> {
  await moveTeamOnce(deps.data, input, (repos, scope, toOrgId) => repos.inboxes.moveTeam(scope, toOrgId));
  deps.data.hot.intake.inboxesChanged();
}
