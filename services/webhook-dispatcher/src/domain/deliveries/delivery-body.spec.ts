import { randomUUID } from "node:crypto";
import { DomainEvent, WebhookDeliveryBody, type WebhookDomainEvent } from "@burnbox/contracts";
import { newEvent } from "@burnbox/service-kit/messaging";
import { EXTRACTED, emailReceivedEvent } from "../../../test/factories";
import { deliveryBody } from "./delivery-body";

const teamId = randomUUID();

describe("the delivery body", () => {
  it("when an email.received event carries a summary, then the body has the contract's shape and no summary", () => {
    const event = emailReceivedEvent({ orgId: randomUUID(), teamId }, { subject: "Hi", receivedAt: "2026-01-02T03:04:05.000Z" });
    const body: unknown = JSON.parse(deliveryBody("0b7c4c1e-6f7a-4e0e-9a43-6b0d7b0c6c11", event));
    expect(WebhookDeliveryBody.parse(body)).toEqual({
      id: "0b7c4c1e-6f7a-4e0e-9a43-6b0d7b0c6c11",
      event: "email.received",
      timestamp: event.occurred_at,
      data: {
        email_id: event.data.email_id,
        inbox_id: event.data.inbox_id,
        team_id: teamId,
        from: "a@example.org",
        to: "b@x.test",
        subject: "Hi",
        received_at: "2026-01-02T03:04:05.000Z",
        extracted: EXTRACTED,
      },
    });
  });

  it("when an email.received event from before `extracted` is read, then the body carries empty lists, never null", () => {
    const { extracted: _extracted, ...data } = emailReceivedEvent({ orgId: randomUUID(), teamId }).data;
    // as the consumer reads it off the stream
    const event = DomainEvent.parse({ ...emailReceivedEvent({ orgId: randomUUID(), teamId }), data }) as WebhookDomainEvent;
    const body = JSON.parse(deliveryBody(randomUUID(), event)) as { data: Record<string, unknown> };
    expect(body.data.extracted).toEqual({ codes: [], links: [] });
  });

  it("when an inbox.expired event is delivered, then its data goes out whole", () => {
    const data = { inbox_id: randomUUID(), team_id: teamId, full_address: "a@x.test", expired_at: "2026-01-02T03:04:05.000Z" };
    const event = newEvent("inbox.expired", { org_id: randomUUID(), team_id: teamId, data });
    expect(JSON.parse(deliveryBody(randomUUID(), event))).toMatchObject({ event: "inbox.expired", data });
  });
});
