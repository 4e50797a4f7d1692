import { z } from "../zod";
import { WEBHOOK_EVENTS } from "../events";
import { TeamParams, Timestamp, Uuid, errorResponses } from "./common";
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

/** The body of every delivery; `X-Service-Signature` is the HMAC of these exact bytes. */
export const WebhookDeliveryBody = z.object({
  id: Uuid,
  event: WebhookEventName,
  timestamp: Timestamp,
  data: z.record(z.string(), z.unknown()),
});

export const webhookRoutes = defineRoutes([
  {
    operationId: "createWebhook",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/webhooks",
    service: "webhook-dispatcher",
    auth: "user",
    scope: "team.webhooks.manage",
    tag: "Webhooks",
    summary: "Create a webhook; the signing secret is returned only here",
    request: { params: TeamParams, body: CreateWebhookBody },
    responses: { 201: { description: "Created", schema: WebhookWithSecret }, 400: errorResponses[400], 403: errorResponses[403] },
  },
] as const);
