import { moveTeamOnce, type TeamTransfer } from "@burnbox/tenant-removal";
import type { IdentityDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its API keys are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`).
 */
export function moveTeamApiKeys(deps: IdentityDeps, input: TeamTransfer): Promise<void> {
  return moveTeamOnce(deps.data, input, (repos, scope, toOrgId) => repos.apiKeys.moveTeam(scope, toOrgId));
}
