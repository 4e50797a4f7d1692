import { moveTeamOnce, type TeamTransfer } from "@burnbox/tenant-removal";
import type { DispatcherDeps } from "../deps";

/**
 * A team tenancy moved to another org (`team.transferred`): its webhooks are filed under the new
 * org, once per event, after any create of the team in flight has committed (`moveTeamOnce`).
 * The move is not audited here (tenancy audits the transfer); the repository records it as a
 * change, and the replicas' cached subscribers of the team go (SUBSCRIBER_CHANGES).
 */
export async function moveTeamWebhooks(deps: DispatcherDeps, input: TeamTransfer): Promise<void> {
  await moveTeamOnce(deps.data, input, (repos, scope, toOrgId) => repos.webhooks.moveTeam(scope, toOrgId));
}
