import type { AdminOrg, AdminOrgsQuery, Page } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "../platform-config/platform-admin";

/** Every org on the platform (q: name or slug), oldest first, with member, team and domain counts. */
export async function listAdminOrgs(deps: TenancyDeps, ctx: RequestCtx, query: AdminOrgsQuery): Promise<Page<AdminOrg>> {
  requirePlatformAdmin(ctx);
  const { adminOrgs } = deps.data.repos;
  return paginate(query, { rows: (w) => adminOrgs.list(query.q, w), count: () => adminOrgs.count(query.q), map: (rows) => rows });
}
