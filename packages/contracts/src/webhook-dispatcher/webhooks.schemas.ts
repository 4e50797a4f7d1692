import { z } from "../zod";
import { WEBHOOK_EVENTS } from "../messaging/events";
import { TeamParams, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";

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

const WebhookUrl = z.string().trim().min(1).max(2048);
/** Duplicates are dropped rather than refused. */
const SubscribedEvents = z
  .array(WebhookEventName)
  .min(1)
  .transform((e) => [...new Set(e)]);

export const CreateWebhookBody = z.object({ url: WebhookUrl, events: SubscribedEvents }).openapi("CreateWebhookRequest");
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = atLeastOneField(
  z.object({ url: WebhookUrl.optional(), events: SubscribedEvents.optional(), active: z.boolean().optional() }),
).openapi("UpdateWebhookRequest", {
  description: "At least one of url, events, active. A new url must pass the same rules as on create.",
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookParams = TeamParams.extend({ webhookId: Uuid });
