import { randomUUID } from "node:crypto";
import type { ParsedMail } from "mailparser";
import sanitizeHtml from "sanitize-html";
import { newEvent, outboxRow } from "@burnbox/service-kit";
import type { InboxDeps } from "./deps";

/** Attachments with these extensions are dropped on intake (contract notes). */
const EXECUTABLE = /\.(exe|com|bat|cmd|scr|pif|msi|msp|vbs|vbe|js|jse|jar|ps1|psm1|wsf|wsh|hta|cpl|dll|lnk|reg|app|apk|deb|rpm|sh)$/i;

export const isExecutable = (filename: string, contentType: string): boolean =>
  EXECUTABLE.test(filename.trim()) || /x-msdownload|x-msdos-program|x-executable|x-sh\b/i.test(contentType);

/** Mail HTML as a browser may render it: no scripts, handlers, frames or remote forms. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img", "center", "font", "span"]),
    allowedAttributes: {
      "*": [
        "style",
        "align",
        "width",
        "height",
        "bgcolor",
        "color",
        "border",
        "cellpadding",
        "cellspacing",
        "class",
        "dir",
        "lang",
        "title",
      ],
      a: ["href", "name", "target", "rel"],
      img: ["src", "alt", "width", "height"],
      font: ["face", "size", "color"],
    },
    allowedSchemes: ["http", "https", "mailto", "cid", "data"],
    allowedSchemesByTag: { img: ["http", "https", "cid", "data"] },
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }) },
  });
}

export function snippetOf(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
}

const flatHeaders = (mail: ParsedMail): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const line of mail.headerLines) {
    const idx = line.line.indexOf(":");
    const value = (idx >= 0 ? line.line.slice(idx + 1) : line.line).replace(/\r?\n[ \t]+/g, " ").trim();
    out[line.key] = out[line.key] ? `${out[line.key]}, ${value}` : value;
  }
  return out;
};

export interface Delivery {
  inboxId: string;
  recipient: string;
}

/**
 * Stores one accepted message for each recipient inbox: files first, then the rows and the
 * `email.received` events in one transaction. Throws if anything fails, so the SMTP session
 * answers 451 and the sender retries; nothing is acknowledged that is not stored.
 */
export async function receiveMessage(
  deps: InboxDeps,
  raw: Buffer,
  mail: ParsedMail,
  envelopeFrom: string,
  deliveries: Delivery[],
): Promise<string[]> {
  const from = mail.from?.value[0]?.address?.toLowerCase() || envelopeFrom.toLowerCase() || "";
  const subject = mail.subject ?? "";
  const bodyText = mail.text ?? null;
  const bodyHtml = typeof mail.html === "string" ? sanitizeEmailHtml(mail.html) : null;
  const headers = flatHeaders(mail);
  const kept = mail.attachments.filter((a) => !isExecutable(a.filename ?? "", a.contentType));
  const ids: string[] = [];
  const ns = deps.config.nats.namespace;
  const receivedAt = new Date(deps.now());

  type StoredAttachment = { id: string; filename: string; contentType: string; sizeBytes: number; storageKey: string };
  const stored: Array<{ d: Delivery; emailId: string; rawKey: string; attachments: StoredAttachment[] }> = [];
  for (const d of deliveries) {
    const emailId = randomUUID();
    const rawKey = `${d.inboxId}/${emailId}/message.eml`;
    await deps.storage.put(rawKey, raw);
    const attachments: StoredAttachment[] = [];
    for (const a of kept) {
      const id = randomUUID();
      const key = `${d.inboxId}/${emailId}/${id}`;
      await deps.storage.put(key, a.content);
      attachments.push({ id, filename: a.filename ?? "attachment", contentType: a.contentType, sizeBytes: a.size, storageKey: key });
    }
    stored.push({ d, emailId, rawKey, attachments });
  }

  await deps.db.$transaction(async (tx) => {
    for (const { d, emailId, rawKey, attachments } of stored) {
      // No counter update on the inbox row: a hot inbox would serialise every delivery on its lock.
      const inbox = await tx.inbox.findUniqueOrThrow({ where: { id: d.inboxId }, select: { orgId: true, teamId: true } });
      await tx.email.create({
        data: {
          id: emailId,
          inboxId: d.inboxId,
          messageId: mail.messageId ?? null,
          fromAddress: from,
          toAddress: d.recipient,
          subject,
          snippet: snippetOf(bodyText ?? undefined),
          bodyText,
          bodyHtml,
          headers,
          sizeBytes: raw.length,
          hasAttachments: attachments.length > 0,
          rawKey,
          receivedAt,
          attachments: { create: attachments },
        },
      });
      const event = newEvent("email.received", {
        org_id: inbox.orgId,
        team_id: inbox.teamId,
        data: {
          email_id: emailId,
          inbox_id: d.inboxId,
          team_id: inbox.teamId,
          from,
          to: d.recipient,
          subject,
          received_at: receivedAt.toISOString(),
          summary: {
            id: emailId,
            inbox_id: d.inboxId,
            from_address: from,
            subject,
            snippet: snippetOf(bodyText ?? undefined),
            has_attachments: attachments.length > 0,
            is_read: false,
            size_bytes: raw.length,
            received_at: receivedAt.toISOString(),
          },
        },
      });
      await tx.outboxEvent.create({ data: outboxRow(ns, event) });
      ids.push(emailId);
    }
  });
  deps.relay.kick();
  return ids;
}
