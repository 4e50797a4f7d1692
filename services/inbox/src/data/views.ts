import type { Email, EmailSummary, Inbox } from "@burnbox/contracts";
import type { Prisma } from "./prisma";

type InboxRow = Prisma.InboxGetPayload<object>;
type EmailRow = Prisma.EmailGetPayload<object>;
type EmailWithAttachments = Prisma.EmailGetPayload<{ include: { attachments: true } }>;

export interface InboxCounts {
  email_count: number;
  unread_count: number;
}

export function inboxView(i: InboxRow, counts: InboxCounts = { email_count: 0, unread_count: 0 }): Inbox {
  return {
    id: i.id,
    team_id: i.teamId,
    org_id: i.orgId,
    domain_id: i.domainId,
    domain_assignment_id: i.domainAssignmentId,
    created_by: i.createdBy,
    address: i.address,
    full_address: i.fullAddress,
    is_active: i.isActive,
    private: i.private,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
    email_count: counts.email_count,
    unread_count: counts.unread_count,
  };
}

export function emailSummaryView(e: EmailRow): EmailSummary {
  return {
    id: e.id,
    inbox_id: e.inboxId,
    from_address: e.fromAddress,
    subject: e.subject,
    snippet: e.snippet,
    has_attachments: e.hasAttachments,
    is_read: e.isRead,
    size_bytes: e.sizeBytes,
    received_at: e.receivedAt.toISOString(),
  };
}

export function emailView(e: EmailWithAttachments): Email {
  const headers = e.headers && typeof e.headers === "object" && !Array.isArray(e.headers) ? (e.headers as Record<string, string>) : {};
  return {
    id: e.id,
    inbox_id: e.inboxId,
    message_id: e.messageId,
    from_address: e.fromAddress,
    to_address: e.toAddress,
    subject: e.subject,
    body_text: e.bodyText,
    body_html: e.bodyHtml,
    headers,
    size_bytes: e.sizeBytes,
    is_read: e.isRead,
    received_at: e.receivedAt.toISOString(),
    attachments: e.attachments.map((a) => ({ id: a.id, filename: a.filename, content_type: a.contentType, size_bytes: a.sizeBytes })),
  };
}
