import { randomUUID } from "node:crypto";
import { newEvent } from "@burnbox/service-kit";

/** The codes and links the inbox service found in the mail (extensions section 2). */
export const EXTRACTED = {
  codes: [{ value: "482913", context: "Your code is 482913" }],
  links: [{ url: "https://app.example.org/verify?t=1", text: "Verify", kind: "verify" as const }],
};

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
      extracted: EXTRACTED,
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
