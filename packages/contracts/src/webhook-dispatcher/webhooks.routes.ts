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
      "summary with `extracted` codes and links) with the headers `X-Service-Signature`, `X-Service-Event`,",
      "`X-Service-Delivery-ID` and `X-Service-Timestamp` (the sending time, Unix seconds).",
      "",
      "`X-Service-Signature` is the lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook's `secret`",
      "(its UTF-8 text, as this answer shows it). A receiver computes it over the raw body as received (never JSON",
      "re-serialized), compares in constant time, and refuses a body whose `timestamp` (the event's time, which the",
      "signature covers) is too old, as a possible replay. `id` equals `X-Service-Delivery-ID` and is the same on every",
      "retry and redelivery: deduplicate on it. `verifyWebhook(secret, headers, rawBody)` of `@burnbox/sdk` does all of it.",
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
