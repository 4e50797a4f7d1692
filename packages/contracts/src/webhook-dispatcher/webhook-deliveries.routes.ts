import { PaginationQuery, paginated } from "../pagination";
import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { RedeliverParams, Redelivery, WebhookDeliveryLogEntry, WebhookStats } from "./webhook-deliveries.schemas";
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
  {
    operationId: "redeliverWebhookDelivery",
    method: "post",
    path: `${base}/deliveries/{deliveryId}/redeliver`,
    auth: "user",
    scope: "team.webhooks.manage",
    summary: "Send a delivery again",
    description: [
      "Queues the delivery's exact body again as a new series of attempts: the retry schedule, the failure counting and the",
      "address checks at dispatch apply as to any delivery, and the series survives a restart. Every attempt carries the same",
      "`X-Service-Delivery-ID` (so a receiver drops what it already handled), a fresh `X-Service-Timestamp`, the",
      "`X-Service-Signature` and an `X-Service-Signature-256` whose signed `t` is that sending time, computed with the",
      "webhook's secret (so the redelivery passes a receiver's replay window); the attempts are logged under the same",
      "`delivery_id`, numbered from 1 again.",
      "",
      "Refused with 409 (nothing queued) while the delivery's own series is still in flight (an attempt or a retry pending):",
      "a second series beside it would send the same delivery id twice at once and interleave the two in the log, and the",
      "series ends on its own within the retry schedule; redeliver once the log shows its last attempt. Refused with 409",
      "too when the webhook is disabled (`active: false`): nothing is sent to a disabled webhook, so a 202 would promise a",
      "delivery that never happens; enable the webhook first. A delivery unknown to the webhook, or of another team, is 404.",
    ].join("\n"),
    request: { params: RedeliverParams },
    responses: {
      202: { description: "Queued again", schema: Redelivery },
      403: errorResponses[403],
      404: errorResponses[404],
      409: { description: "The delivery's series is still in flight, or the webhook is disabled" },
    },
    extensions: { "x-burnbox-extension": true },
  },
] as const);
