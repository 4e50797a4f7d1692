import { z } from "../zod";
import { WEBHOOK_EVENTS } from "../events";
import { PaginationQuery, paginated } from "../pagination";
import { MessageBody, TeamParams, Timestamp, Uuid, errorResponses } from "./common";
import { defineRoutes } from "./route";

export const WebhookEventName = z.enum(WEBHOOK_EVENTS);

export const Webhook = z
  .object({
    id: Uuid,
    team_id: Uuid,
    created_by: Uuid,
    url: z.string(),
    events: z.array(WebhookEventName),
    active: z.boolean(),
    failure_count: z.number().int(),
    last_status: z.number().int().nullable(),
    last_attempt_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Webhook");
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({ secret: z.string() }).openapi("WebhookWithSecret");

export const CreateWebhookBody = z
  .object({
    url: z.string().trim().min(1).max(2048),
    events: z
      .array(WebhookEventName)
      .min(1)
      .transform((e) => [...new Set(e)]),
  })
  .openapi("CreateWebhookRequest");
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({
    url: z.string().trim().min(1).max(2048).optional(),
    events: z
      .array(WebhookEventName)
      .min(1)
      .transform((e) => [...new Set(e)])
      .optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => b.url !== undefined || b.events !== undefined || b.active !== undefined, { message: "at least one field is required" })
  .openapi("UpdateWebhookRequest", {
    description: "At least one of url, events, active. A new url must pass the same rules as on create.",
  });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookParams = TeamParams.extend({ webhookId: Uuid });

/** One row of the delivery log: one attempt of one delivery (spec 2.4). */
export const WebhookDeliveryLogEntry = z
  .object({
    id: Uuid,
    webhook_id: Uuid,
    delivery_id: Uuid.openapi({ description: "The delivery's id (X-Service-Delivery-ID), the same on every attempt of it" }),
    event: WebhookEventName,
    attempt: z.number().int().openapi({ description: "1 for the first attempt, 2 for the first retry, ..." }),
    success: z.boolean(),
    response_status: z.number().int().nullable().openapi({ description: "null when no HTTP answer was received (timeout, refused)" }),
    response_time_ms: z.number().int(),
    error: z.string().nullable(),
    created_at: Timestamp,
  })
  .openapi("WebhookDelivery");
export type WebhookDeliveryLogEntry = z.infer<typeof WebhookDeliveryLogEntry>;

export const WebhookStats = z
  .object({
    total_deliveries: z
      .number()
      .int()
      .openapi({ description: "Logged delivery attempts (each retry counts); equals `total` of the deliveries list" }),
    success_count: z.number().int().openapi({ description: "Attempts answered with a 2xx" }),
    failure_count: z.number().int().openapi({ description: "Attempts that failed (non-2xx, timeout, refused connection)" }),
    success_rate: z.number().openapi({
      description: "success_count / total_deliveries as a percentage from 0 to 100, rounded to 2 decimals; 0 when there are none",
    }),
    avg_response_time_ms: z
      .number()
      .int()
      .openapi({ description: "Mean response_time_ms over all logged attempts, rounded; 0 when there are none" }),
    last_delivery_at: Timestamp.nullable().openapi({ description: "When the newest attempt was logged" }),
  })
  .openapi("WebhookStats", {
    description:
      "Delivery health computed from the delivery log, per attempt: a delivery retried twice then delivered counts 3 (1 success, 2 failures).",
  });
export type WebhookStats = z.infer<typeof WebhookStats>;

/** The body of every delivery; `X-Service-Signature` is the HMAC of these exact bytes. */
export const WebhookDeliveryBody = z.object({
  id: Uuid,
  event: WebhookEventName,
  timestamp: Timestamp,
  data: z.record(z.string(), z.unknown()),
});

const base = "/orgs/{orgId}/teams/{teamId}/webhooks";
const common = { service: "webhook-dispatcher", auth: "user", tag: "Webhooks" } as const;

export const webhookRoutes = defineRoutes([
  {
    ...common,
    operationId: "createWebhook",
    method: "post",
    path: base,
    scope: "team.webhooks.manage",
    summary: "Create a webhook; the signing secret is returned only here",
    request: { params: TeamParams, body: CreateWebhookBody },
    responses: { 201: { description: "Created", schema: WebhookWithSecret }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    operationId: "listWebhooks",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/webhooks",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.view",
    tag: "Webhooks",
    summary: "List the team's webhooks",
    request: { params: TeamParams, query: PaginationQuery },
    responses: { 200: { description: "Webhooks", schema: paginated(Webhook, "WebhookPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "updateWebhook",
    method: "patch",
    path: "/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.manage",
    tag: "Webhooks",
    summary: "Change url, events or active; the URL rules apply again",
    request: { params: WebhookParams, body: UpdateWebhookBody },
    responses: { 200: { description: "Updated", schema: Webhook }, 400: errorResponses[400], 404: errorResponses[404] },
  },
  {
    operationId: "deleteWebhook",
    method: "delete",
    path: "/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.manage",
    tag: "Webhooks",
    summary: "Delete a webhook (pending deliveries are dropped)",
    request: { params: WebhookParams },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 404: errorResponses[404] },
  },
  {
    operationId: "listWebhookDeliveries",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/deliveries",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.view",
    tag: "Webhooks",
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
    path: "/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/stats",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.view",
    tag: "Webhooks",
    summary: "Delivery health of one webhook",
    request: { params: WebhookParams },
    responses: { 200: { description: "Stats", schema: WebhookStats }, 404: errorResponses[404] },
  },
] as const);
