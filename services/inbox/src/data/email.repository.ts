import type { Email, EmailSummary } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit";
import { inboxAccessFields, toInboxAccess, type InboxAccess } from "./inbox.repository";
import type { Client, Prisma } from "./prisma";

type EmailRow = Prisma.EmailGetPayload<object>;
type EmailWithAttachments = Prisma.EmailGetPayload<{ include: { attachments: true } }>;

export interface NewAttachment {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
}

export interface NewEmail {
  id: string;
  inboxId: string;
  messageId: string | null;
  fromAddress: string;
  toAddress: string;
  subject: string;
  snippet: string;
  bodyText: string | null;
  bodyHtml: string | null;
  headers: Record<string, string>;
  sizeBytes: number;
  rawKey: string;
  receivedAt: Date;
  attachments: NewAttachment[];
}

/** The emails of one inbox, optionally those whose subject, sender or text contain `search`. */
export interface EmailListing {
  inboxId: string;
  search?: string | undefined;
}

export function toEmailSummary(e: EmailRow): EmailSummary {
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

export function toEmail(e: EmailWithAttachments): Email {
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

/** Emails carry no tenant columns: their inbox's tenant scopes them. */
const inTeam = (scope: TeamScope) => ({ orgId: scope.orgId, teamId: scope.teamId });

const listingWhere = (scope: TeamScope, l: EmailListing): Prisma.EmailWhereInput => {
  const where: Prisma.EmailWhereInput = { inboxId: l.inboxId, inbox: inTeam(scope) };
  if (!l.search) return where;
  return {
    ...where,
    OR: [
      { subject: { contains: l.search, mode: "insensitive" } },
      { fromAddress: { contains: l.search, mode: "insensitive" } },
      { bodyText: { contains: l.search, mode: "insensitive" } },
    ],
  };
};

export class EmailRepository {
  constructor(private readonly db: Client) {}

  /** An email found by its id alone, with what deciding access to its inbox needs. */
  async locate(emailId: string): Promise<{ id: string; inbox: InboxAccess } | null> {
    const row = await this.db.email.findUnique({ where: { id: emailId }, select: { id: true, inbox: { select: inboxAccessFields } } });
    return row && { id: row.id, inbox: toInboxAccess(row.inbox) };
  }

  async get(scope: TeamScope, emailId: string): Promise<Email | null> {
    const row = await this.db.email.findFirst({ where: { id: emailId, inbox: inTeam(scope) }, include: { attachments: true } });
    return row && toEmail(row);
  }

  /** Newest first. */
  async list(scope: TeamScope, listing: EmailListing, window: { skip: number; take: number }): Promise<EmailSummary[]> {
    const rows = await this.db.email.findMany({
      where: listingWhere(scope, listing),
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toEmailSummary);
  }

  count(scope: TeamScope, listing: EmailListing): Promise<number> {
    return this.db.email.count({ where: listingWhere(scope, listing) });
  }

  /** Stores a received email in an inbox of `scope`; throws when no such inbox exists (any more). */
  async create(scope: TeamScope, email: NewEmail): Promise<void> {
    const { inboxId, attachments, ...fields } = email;
    await this.db.email.create({
      data: {
        ...fields,
        hasAttachments: attachments.length > 0,
        inbox: { connect: { id: inboxId, ...inTeam(scope) } },
        attachments: { create: attachments },
      },
      select: { id: true },
    });
  }
}
