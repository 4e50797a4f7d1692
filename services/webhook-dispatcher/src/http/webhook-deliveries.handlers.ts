import type { Handlers } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import { getWebhookStats } from "../domain/webhook-deliveries/get-webhook-stats.use-case";
import { listWebhookDeliveries } from "../domain/webhook-deliveries/list-webhook-deliveries.use-case";
import type { RoutesOf } from "./service-routes";

type WebhookDeliveriesRoutes = RoutesOf<"listWebhookDeliveries" | "getWebhookStats">;

export const webhookDeliveriesHandlers = (deps: DispatcherDeps): Handlers<WebhookDeliveriesRoutes> => ({
  listWebhookDeliveries: ({ ctx, params, query }) => listWebhookDeliveries(deps, ctx, { ...params, ...query }),
  getWebhookStats: ({ ctx, params }) => getWebhookStats(deps, ctx, params),
});
