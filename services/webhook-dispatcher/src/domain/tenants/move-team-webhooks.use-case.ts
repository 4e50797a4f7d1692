import { moveTeamOnce, type TeamTransfer } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its webhooks are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`).
 */
export function moveTeamWebhooks(deps: DispatcherDeps, input: TeamTransfer): Promise<void> {
  return moveTeamOnce(deps.data, input, (repos, scope, toOrgId) => repos.webhooks.moveTeam(scope, toOrgId));
}
