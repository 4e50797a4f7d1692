import type { TeamInsights } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { insights } from "./insights";

export async function getTeamInsights(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; days: number },
): Promise<TeamInsights> {
  const scope = await requireTeam(deps, ctx, input, "team.analytics.view");
  const { inboxes_per_day, peak_hours, storage_per_day } = await insights(deps, scope, input.days);
  return { inboxes_per_day, peak_hours, storage_per_day };
}
