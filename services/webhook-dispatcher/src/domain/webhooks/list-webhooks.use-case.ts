import type { Page, PaginationQuery, Webhook } from "@burnbox/contracts";
import { paginate, type TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam } from "./team-access";

/** The team's webhooks, newest first; never their secrets. */
export async function listWebhooks(deps: DispatcherDeps, ctx: RequestCtx, input: TeamScope & PaginationQuery): Promise<Page<Webhook>> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.view");
  const { webhooks } = deps.data.repos;
  return paginate(input, {
    rows: (window) => webhooks.list(scope, window),
    count: () => webhooks.count(scope),
    map: (rows) => rows,
  });
}
