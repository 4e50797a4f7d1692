import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { WebhookEventName, WebhookParams } from "./webhooks.schemas";

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

export const RedeliverParams = WebhookParams.extend({
  deliveryId: Uuid.openapi({
    description: "The delivery's `delivery_id` as the delivery log lists it (the X-Service-Delivery-ID it was sent with)",
  }),
});
export type RedeliverParams = z.infer<typeof RedeliverParams>;

/** The answer to a redelivery: the delivery queued again (the same id its attempts carry). */
export const Redelivery = z
  .object({
    delivery_id: Uuid.openapi({
      description: "The delivery queued again; its new attempts carry it as X-Service-Delivery-ID and in the log",
    }),
  })
  .openapi("WebhookRedelivery");
export type Redelivery = z.infer<typeof Redelivery>;

/** The body of every delivery; `X-Service-Signature` is the HMAC of these exact bytes. */
export const WebhookDeliveryBody = z.object({
  id: Uuid,
  event: WebhookEventName,
  timestamp: Timestamp,
  data: z.record(z.string(), z.unknown()),
});
