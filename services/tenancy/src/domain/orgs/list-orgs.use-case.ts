import type { OrgWithRole, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";

/** The orgs the caller belongs to, with the caller's role in each. */
export async function listOrgs(deps: TenancyDeps, ctx: RequestCtx, input: PaginationQuery): Promise<Page<OrgWithRole>> {
  // the caller's own memberships only: nothing to authorize beyond being signed in
  const { orgs } = deps.data.repos;
  return paginate(input, {
    rows: (window) => orgs.listForUser(ctx.actor.user_id, window),
    count: () => orgs.countForUser(ctx.actor.user_id),
    map: (rows) => rows,
  });
}
