import type { OrgInsights } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { insights } from "./insights";

/** The team insights for the whole org, plus its mail per receiving domain over the window (most first). */
export async function getOrgInsights(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; days: number }): Promise<OrgInsights> {
  const scope = await requireOrg(deps, ctx, input, "org.analytics.view");
  const { range, ...series } = await insights(deps, scope, input.days);
  const domains = await deps.data.repos.analytics.perDomain(scope, range);
  return {
    inboxes_per_day: series.inboxes_per_day,
    peak_hours: series.peak_hours,
    domain_breakdown: domains.map((d) => ({ domain: d.domain, count: d.emails })),
    storage_per_day: series.storage_per_day,
  };
}
