import type { WebhookStats } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam, teamWebhook, type WebhookRef } from "../webhooks/team-access";
import { webhookStats } from "./webhook-stats";

/** Delivery health of one webhook, computed from its log. */
export async function getWebhookStats(deps: DispatcherDeps, ctx: RequestCtx, input: WebhookRef): Promise<WebhookStats> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.view");
  const hook = await teamWebhook(deps, scope, input.webhookId);
  return webhookStats(await deps.data.repos.deliveries.logFigures(scope, hook.id));
}
