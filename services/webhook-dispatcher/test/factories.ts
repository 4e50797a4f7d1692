import { randomUUID } from "node:crypto";
import { newEvent } from "@burnbox/service-kit";

/** An `email.received` event of the team, with the WebSocket summary the inbox service attaches. */
export function emailReceivedEvent(team: { orgId: string; teamId: string }, overrides: { subject?: string; receivedAt?: string } = {}) {
  const subject = overrides.subject ?? "Hi";
  const receivedAt = overrides.receivedAt ?? new Date().toISOString();
  const inboxId = randomUUID();
  const emailId = randomUUID();
  return newEvent("email.received", {
    org_id: team.orgId,
    team_id: team.teamId,
    data: {
      email_id: emailId,
      inbox_id: inboxId,
      team_id: team.teamId,
      from: "a@example.org",
      to: "b@x.test",
      subject,
      received_at: receivedAt,
      summary: {
        id: emailId,
        inbox_id: inboxId,
        from_address: "a@example.org",
        subject,
        snippet: "",
        has_attachments: false,
        is_read: false,
        size_bytes: 1,
        received_at: receivedAt,
      },
    },
  });
}
