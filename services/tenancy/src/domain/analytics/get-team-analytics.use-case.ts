import type { TeamAnalytics } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** The team's lifetime totals (kept from events) and its members now. */
export async function getTeamAnalytics(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string },
): Promise<TeamAnalytics> {
  const scope = await requireTeam(deps, ctx, input, "team.analytics.view");
  const { analytics } = deps.data.repos;
  const [totals, members] = await Promise.all([analytics.totals(scope), analytics.teamMembers(scope)]);
  return {
    total_emails: totals.emails,
    total_inboxes: totals.inboxesCreated,
    active_inboxes: totals.activeInboxes,
    total_members: members,
  };
}
