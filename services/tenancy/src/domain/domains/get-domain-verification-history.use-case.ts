import type { DomainVerification, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function getDomainVerificationHistory(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domainId: string } & PaginationQuery,
): Promise<Page<DomainVerification>> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.view");
  const { domains } = deps.data.repos;
  if (!(await domains.get(scope, input.domainId))) throw errors.notFound("domain");
  return paginate(input, {
    rows: (window) => domains.history(scope, input.domainId, window),
    count: () => domains.countHistory(scope, input.domainId),
    map: (rows) => rows,
  });
}
