import type { ApiKey, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate, type TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireTeamPermission } from "./key-access";
import { withPendingUsage } from "./key-cache";

/** The team's keys, newest first, with exact usage; revoked ones only with include_revoked. */
export async function listApiKeys(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { team: TeamScope; query: PaginationQuery & { include_revoked: boolean } },
): Promise<Page<ApiKey>> {
  const { team, query } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.view");
  const keys = deps.data.repos.apiKeys;
  const filter = { includeRevoked: query.include_revoked };
  return paginate(query, {
    rows: (window) => keys.page(team, filter, window),
    count: () => keys.count(team, filter),
    map: (rows) => withPendingUsage(deps, rows),
  });
}
