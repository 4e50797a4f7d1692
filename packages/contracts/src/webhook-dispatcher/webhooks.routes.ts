import { PaginationQuery, paginated } from "../pagination";
import { MessageBody, TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookParams, WebhookWithSecret } from "./webhooks.schemas";

const base = "/orgs/{orgId}/teams/{teamId}/webhooks";

export const webhooksRoutes = defineRoutes({ service: "webhook-dispatcher", tag: "Webhooks" }, [
  {
    operationId: "createWebhook",
    method: "post",
    path: base,
    auth: "user",
    scope: "team.webhooks.manage",
    summary: "Create a webhook; the signing secret is returned only here",
    description: [
      "Each delivery is a `POST` of the JSON body `{id, event, timestamp, data}` (`data`: for `email.received` the email's",
      "summary with `extracted` codes and links) with the headers `X-Service-Signature`, `X-Service-Signature-256`,",
      "`X-Service-Event`, `X-Service-Delivery-ID` and `X-Service-Timestamp` (this attempt's sending time, Unix seconds).",
      "",
      "`X-Service-Signature-256: t=<unix seconds>,v1=<hex>`: `t` is the attempt's sending time (the same value as",
      "`X-Service-Timestamp`) and `v1` the lowercase hex HMAC-SHA256, keyed with the webhook's `secret` (its UTF-8 text, as",
      "this answer shows it), of `t`, a `.` and the exact body bytes. A receiver computes it over the raw body as received",
      "(never JSON re-serialized), compares in constant time (accepting any one of several `v1`), and refuses a delivery whose",
      "`t` is too far from now (5 minutes, say) as a possible replay; every attempt, retry and redelivery is signed afresh.",
      "`X-Service-Signature` (the HMAC of the body alone, unchanged) is kept for receivers written against it; it does not",
      "cover the time. `id` equals `X-Service-Delivery-ID` and is the same on every retry and redelivery: deduplicate on it.",
      "`verifyWebhook(secret, headers, rawBody)` and `createReplayGuard()` of `@burnbox/sdk` do all of it.",
    ].join("\n"),
    request: { params: TeamParams, body: CreateWebhookBody },
    responses: { 201: { description: "Created", schema: WebhookWithSecret }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    operationId: "listWebhooks",
    method: "get",
    path: base,
    auth: "user",
    scope: "team.webhooks.view",
    summary: "List the team's webhooks",
    request: { params: TeamParams, query: PaginationQuery },
    responses: { 200: { description: "Webhooks", schema: paginated(Webhook, "WebhookPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "updateWebhook",
    method: "patch",
    path: `${base}/{webhookId}`,
    auth: "user",
    scope: "team.webhooks.manage",
    summary: "Change url, events or active; the URL rules apply again",
    request: { params: WebhookParams, body: UpdateWebhookBody },
    responses: { 200: { description: "Updated", schema: Webhook }, 400: errorResponses[400], 404: errorResponses[404] },
  },
  {
    operationId: "deleteWebhook",
    method: "delete",
    path: `${base}/{webhookId}`,
    auth: "user",
    scope: "team.webhooks.manage",
    summary: "Delete a webhook (pending deliveries are dropped)",
    request: { params: WebhookParams },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 404: errorResponses[404] },
  },
] as const);
