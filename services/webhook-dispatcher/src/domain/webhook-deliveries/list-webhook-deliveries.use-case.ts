import type { Page, PaginationQuery, WebhookDeliveryLogEntry } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam, teamWebhook, type WebhookRef } from "../webhooks/team-access";

/** The webhook's delivery log, one row per attempt, newest first. */
export async function listWebhookDeliveries(
  deps: DispatcherDeps,
  ctx: RequestCtx,
  input: WebhookRef & PaginationQuery,
): Promise<Page<WebhookDeliveryLogEntry>> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.view");
  const hook = await teamWebhook(deps, scope, input.webhookId);
  const { deliveries } = deps.data.repos;
  return paginate(input, {
    rows: (window) => deliveries.log(scope, hook.id, window),
    count: () => deliveries.countLog(scope, hook.id),
    map: (rows) => rows,
  });
}
