import type { TeamImpact } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** What deleting a team would touch: members, inboxes, mail, assignments, webhooks and API keys. */
export async function getTeamImpact(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<TeamImpact> {
  const scope = await requireTeam(deps, ctx, input, "team.view");
  const { teams, impact } = deps.data.repos;
  const [team, totals, resources] = await Promise.all([teams.get(scope), impact.teamTotals(scope), impact.teamResources([scope.teamId])]);
  if (!team) throw errors.notFound("team");
  const counts = resources.get(scope.teamId);
  return {
    member_count: team.member_count,
    inbox_count: totals.inboxes,
    active_inbox_count: team.active_inboxes,
    email_count: totals.emails,
    domain_assignment_count: team.domain_count,
    webhook_count: counts?.webhooks ?? 0,
    api_key_count: counts?.apiKeys ?? 0,
  };
}
