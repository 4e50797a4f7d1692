import type { Handlers } from "@burnbox/service-kit/http";
import type { DispatcherDeps } from "../domain/deps";
import { getWebhookStats } from "../domain/webhook-deliveries/get-webhook-stats.use-case";
import { listWebhookDeliveries } from "../domain/webhook-deliveries/list-webhook-deliveries.use-case";
import { redeliverDelivery } from "../domain/webhook-deliveries/redeliver-delivery.use-case";
import type { RoutesOf } from "./service-routes";

type WebhookDeliveriesRoutes = RoutesOf<"listWebhookDeliveries" | "getWebhookStats" | "redeliverWebhookDelivery">;

/** `queued` is told when a delivery was queued again, so the worker polls now rather than at its next interval. */
export const webhookDeliveriesHandlers = (deps: DispatcherDeps, queued: () => void = () => {}): Handlers<WebhookDeliveriesRoutes> => ({
  listWebhookDeliveries: ({ ctx, params, query }) => listWebhookDeliveries(deps, ctx, { ...params, ...query }),
  getWebhookStats: ({ ctx, params }) => getWebhookStats(deps, ctx, params),
  redeliverWebhookDelivery: async ({ ctx, params }) => {
    const answer = await redeliverDelivery(deps, ctx, params);
    queued();
    return answer;
  },
});
