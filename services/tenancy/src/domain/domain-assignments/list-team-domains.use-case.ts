import type { DomainAssignment, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function listTeamDomains(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & PaginationQuery,
): Promise<Page<DomainAssignment>> {
  const scope = await requireTeam(deps, ctx, input, "team.domains.view");
  const { domainAssignments } = deps.data.repos;
  return paginate(input, {
    rows: (window) => domainAssignments.list(scope, window),
    count: () => domainAssignments.count(scope),
    map: (rows) => rows,
  });
}
