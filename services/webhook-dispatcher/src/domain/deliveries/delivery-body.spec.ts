import { randomUUID } from "node:crypto";
import { WebhookDeliveryBody } from "@burnbox/contracts";
import { newEvent } from "@burnbox/service-kit";
import { emailReceivedEvent } from "../../../test/factories";
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
      },
    });
  });

  it("when an inbox.expired event is delivered, then its data goes out whole", () => {
    const data = { inbox_id: randomUUID(), team_id: teamId, full_address: "a@x.test", expired_at: "2026-01-02T03:04:05.000Z" };
    const event = newEvent("inbox.expired", { org_id: randomUUID(), team_id: teamId, data });
    expect(JSON.parse(deliveryBody(randomUUID(), event))).toMatchObject({ event: "inbox.expired", data });
  });
});
