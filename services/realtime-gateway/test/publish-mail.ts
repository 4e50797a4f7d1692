import { randomUUID } from "node:crypto";
import { EventType, subjects, type EventOf } from "@burnbox/contracts";
import { newEvent, publishEvent } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";

type EmailReceived = EventOf<typeof EventType.emailReceived>;

/** An `email.received` event of `inboxId` with its summary, as the intake makes it. */
export function mailEvent(o: { orgId: string; teamId: string; inboxId: string; subject: string }): EmailReceived {
  const emailId = randomUUID();
  const receivedAt = new Date().toISOString();
  return newEvent("email.received", {
    org_id: o.orgId,
    team_id: o.teamId,
    data: {
      email_id: emailId,
      inbox_id: o.inboxId,
      team_id: o.teamId,
      from: "s@example.org",
      to: "x@y.test",
      subject: o.subject,
      received_at: receivedAt,
      extracted: { codes: [], links: [] },
      summary: {
        id: emailId,
        inbox_id: o.inboxId,
        from_address: "s@example.org",
        subject: o.subject,
        snippet: "",
        has_attachments: false,
        is_read: false,
        size_bytes: 10,
        received_at: receivedAt,
      },
    },
  });
}

/**
 * Publishes an `email.received` event as the inbox service's outbox relay does: to the events
 * stream, then, once the stream has it, on its inbox's live subject, which the sockets' replicas
 * subscribe to.
 */
export async function publishMail(infra: Pick<Infra, "js" | "nc">, ns: string, event: EmailReceived): Promise<void> {
  await publishEvent(infra.js, ns, event);
  infra.nc.publish(subjects(ns).live(EventType.emailReceived, event.data.inbox_id), JSON.stringify(event));
}
