import type { Page, PaginationQuery, SsoIdentity } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireOwnSession } from "./own-session";

export async function listMySsoIdentities(deps: IdentityDeps, ctx: RequestCtx, query: PaginationQuery): Promise<Page<SsoIdentity>> {
  const userId = requireOwnSession(ctx);
  const repo = deps.data.repos.ssoIdentities;
  return paginate(query, { rows: (w) => repo.list(userId, w), count: () => repo.count(userId), map: (rows) => rows });
}
