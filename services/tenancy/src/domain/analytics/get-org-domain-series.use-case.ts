import type { DomainSeries } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { lastDays, zeroFilled } from "./series";

/** Emails per UTC day on one of the org's domains; a domain not in the org is a 404 like an unknown one. */
export async function getOrgDomainSeries(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domain: string; days: number },
): Promise<DomainSeries> {
  const scope = await requireOrg(deps, ctx, input, "org.analytics.view");
  const domain = input.domain.trim().toLowerCase();
  const located = await deps.data.repos.domains.locateByName(domain);
  if (!located || located.orgId !== scope.orgId) throw errors.notFound("domain");
  const range = lastDays(new Date(deps.now()), input.days);
  const rows = await deps.data.repos.analytics.domainPerDay(scope, domain, range);
  const counts = zeroFilled(range.dates, rows, (r) => r.emails);
  return { domain, data: range.dates.map((date, i) => ({ date, count: counts[i] ?? 0 })) };
}
