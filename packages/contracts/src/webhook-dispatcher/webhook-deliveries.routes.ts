import { PaginationQuery, paginated } from "../pagination";
import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { WebhookDeliveryLogEntry, WebhookStats } from "./webhook-deliveries.schemas";
import { WebhookParams } from "./webhooks.schemas";

const base = "/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}";

/** The delivery log of one webhook and the health figures computed from it. */
export const webhookDeliveriesRoutes = defineRoutes({ service: "webhook-dispatcher", tag: "Webhooks" }, [
  {
    operationId: "listWebhookDeliveries",
    method: "get",
    path: `${base}/deliveries`,
    auth: "user",
    scope: "team.webhooks.view",
    summary: "The delivery log, newest first",
    request: { params: WebhookParams, query: PaginationQuery },
    responses: {
      200: { description: "Attempts", schema: paginated(WebhookDeliveryLogEntry, "WebhookDeliveryPage") },
      404: errorResponses[404],
    },
  },
  {
    operationId: "getWebhookStats",
    method: "get",
    path: `${base}/stats`,
    auth: "user",
    scope: "team.webhooks.view",
    summary: "Delivery health of one webhook",
    request: { params: WebhookParams },
    responses: { 200: { description: "Stats", schema: WebhookStats }, 404: errorResponses[404] },
  },
] as const);
