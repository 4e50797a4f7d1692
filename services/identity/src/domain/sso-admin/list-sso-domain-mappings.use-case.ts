import type { Page, PaginationQuery, SsoDomainMapping } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { requireProvider } from "./domain-mappings";

export async function listSsoDomainMappings(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { providerId: string; query: PaginationQuery },
): Promise<Page<SsoDomainMapping>> {
  requireSystemAdmin(ctx);
  await requireProvider(deps, input.providerId);
  const repo = deps.data.repos.ssoProviders;
  return paginate(input.query, {
    rows: (w) => repo.mappings(input.providerId, w),
    count: () => repo.countMappings(input.providerId),
    map: (rows) => rows,
  });
}
