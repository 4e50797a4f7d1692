import type { AdminUsersQuery, Page, User } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireSystemAdmin } from "./system-admin";

/** Every user (or those whose email or name holds `q`), oldest first (system admins only; the gateway already refused anyone else and any API key). */
export async function listUsers(deps: IdentityDeps, ctx: RequestCtx, query: AdminUsersQuery): Promise<Page<User>> {
  requireSystemAdmin(ctx, "system admin only");
  const users = deps.data.repos.users;
  return paginate(query, { rows: (window) => users.list(window, query.q), count: () => users.count(query.q), map: (rows) => rows });
}
