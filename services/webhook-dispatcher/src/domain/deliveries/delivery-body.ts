import type { WebhookDomainEvent } from "@burnbox/contracts";

/** What a webhook receives as `data`: the event's data without `summary` (that is for WebSocket frames). */
function webhookData(event: WebhookDomainEvent): Record<string, unknown> {
  switch (event.type) {
    case "email.received": {
      const { summary: _summary, ...data } = event.data;
      return data;
    }
    case "inbox.created":
    case "inbox.expired":
      return event.data;
  }
}

/** The body of a delivery (contract notes); `X-Service-Signature` signs these exact bytes. */
export function deliveryBody(deliveryId: string, event: WebhookDomainEvent): string {
  return JSON.stringify({ id: deliveryId, event: event.type, timestamp: event.occurred_at, data: webhookData(event) });
}
