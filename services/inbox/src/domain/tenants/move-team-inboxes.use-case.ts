import { moveTeamOnce, type TeamTransfer } from "@burnbox/service-kit";
import type { InboxDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its inboxes are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`).
 */
export function moveTeamInboxes(deps: InboxDeps, input: TeamTransfer): Promise<void> {
  return moveTeamOnce(deps.data, input, (repos, scope, toOrgId) => repos.inboxes.moveTeam(scope, toOrgId));
}
