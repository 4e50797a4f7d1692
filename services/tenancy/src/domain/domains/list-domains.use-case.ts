import type { Domain, ListDomainsQuery, Page } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function listDomains(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & ListDomainsQuery): Promise<Page<Domain>> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.view");
  const filter = { ...(input.q ? { q: input.q } : {}), ...(input.status ? { status: input.status } : {}) };
  const { domains } = deps.data.repos;
  return paginate(input, {
    rows: (window) => domains.list(scope, filter, window),
    count: () => domains.count(scope, filter),
    map: (rows) => rows,
  });
}
