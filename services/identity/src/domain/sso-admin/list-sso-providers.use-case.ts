import type { Page, PaginationQuery, SsoProvider } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { publicProvider } from "../../data/sso-provider.repository";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";

export async function listSsoProviders(deps: IdentityDeps, ctx: RequestCtx, query: PaginationQuery): Promise<Page<SsoProvider>> {
  requireSystemAdmin(ctx);
  const repo = deps.data.repos.ssoProviders;
  return paginate(query, { rows: (w) => repo.list(w), count: () => repo.count(), map: (rows) => rows.map(publicProvider) });
}
