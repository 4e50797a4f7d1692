import { randomUUID } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { nothingExtracted, type Authentication, type SpamResult } from "@burnbox/contracts";
import { newEvent, outboxRow } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import { RAW_MESSAGE_FILE, receivedSummary, type NewAttachment } from "../../data/email.repository";
import type { ReceivedEmail } from "../../data/intake.repository";
import type { InboxDeps } from "../deps";
import { extractedOf } from "./extraction/extracted-of";
import {
  flatHeaders,
  hasOwnText,
  isExecutable,
  sanitizeEmailHtml,
  snippetOf,
  storableHeaders,
  storableOrNull,
  storableText,
} from "./mail-content";
import { bodyTextOf } from "./extraction/html-text";
import type { Delivery } from "./resolve-recipient.use-case";
import type { StoredTranscript } from "../smtp/stored-transcript";

export interface ReceivedMessage {
  raw: Buffer;
  mail: ParsedMail;
  /** MAIL FROM, used when the message has no From address. */
  envelopeFrom: string;
  deliveries: Delivery[];
  /** The SMTP transcript of each delivery, stored with its email (extensions section 8): its own RCPT TO only. */
  transcriptOf?: (d: Delivery) => StoredTranscript;
  /** The SPF, DKIM, DMARC and ARC verdicts worked out at intake (extensions section 3); null when not checked. */
  authentication?: Authentication | null;
  /** rspamd's verdict asked at intake (extensions section 9); `disabled` when not given. */
  spam?: SpamResult;
}

/**
 * Stores one accepted message for each recipient inbox: files first (durable when `put`
 * resolves), then the rows and the `email.received` events in one atomic statement (the outbox
 * relay publishes them once it commits). Throws if anything fails, so the SMTP session
 * answers 451 and the sender retries; nothing is acknowledged that is not stored.
 * System-driven: the sender is not a caller, so there is no access check.
 */
export async function receiveEmail(deps: InboxDeps, logger: Logger, input: ReceivedMessage): Promise<string[]> {
  const { raw, mail } = input;
  // every text that reaches a row is made storable; the raw message keeps the original bytes
  const from = storableText(mail.from?.value[0]?.address?.toLowerCase() || input.envelopeFrom.toLowerCase() || "");
  const subject = storableText(mail.subject ?? "");
  // the text part; without one (the parser makes none from the HTML), the HTML's visible text: tags
  // and attribute values such as link URLs are not text (extensions section 1's `body`)
  const sentHtml = typeof mail.html === "string" ? storableText(mail.html) : null;
  const htmlOnly = sentHtml !== null && !mail.text?.trim();
  const bodyText = storableOrNull(htmlOnly ? bodyTextOf(null, sentHtml) : mail.text);
  const bodyHtml = sentHtml === null ? null : sanitizeEmailHtml(sentHtml);
  const headers = storableHeaders(flatHeaders(mail.headerLines));
  const messageId = storableOrNull(mail.messageId);
  const snippet = snippetOf(bodyText);
  // once per message, whatever the number of recipients; from the HTML as sent (sanitizing keeps
  // the text of <title> and the like, which is not visible)
  const extracted = deps.config.bench.unsafe_skip_extraction
    ? nothingExtracted()
    : extractedOf(logger, { subject, text: hasOwnText(mail) && !htmlOnly ? bodyText : null, html: sentHtml, headers });
  const kept = mail.attachments.filter((a) => !isExecutable(a.filename ?? "", a.contentType));
  const receivedAt = new Date(deps.now());
  const authentication = input.authentication ?? null;
  const spam: SpamResult = input.spam ?? { status: "disabled" };

  const stored: Array<{ d: Delivery; emailId: string; rawKey: string; attachments: NewAttachment[] }> = [];
  for (const d of input.deliveries) {
    const emailId = randomUUID();
    const rawKey = `${d.inboxId}/${emailId}/${RAW_MESSAGE_FILE}`;
    await deps.storage.put(rawKey, raw);
    const attachments: NewAttachment[] = [];
    for (const a of kept) {
      const id = randomUUID();
      const key = `${d.inboxId}/${emailId}/${id}`;
      await deps.storage.put(key, a.content);
      attachments.push({
        id,
        filename: storableText(a.filename ?? "attachment"),
        contentType: storableText(a.contentType),
        sizeBytes: a.size,
        storageKey: key,
      });
    }
    stored.push({ d, emailId, rawKey, attachments });
  }

  // one statement for the message's emails, attachments and events, group-committed with the
  // messages that arrive meanwhile; the event rows are made here, under the message's trace
  const namespace = deps.config.nats.namespace;
  const transcriptOf = input.transcriptOf;
  const received: ReceivedEmail[] = stored.map(({ d, emailId, rawKey, attachments }) => ({
    scope: d.scope,
    ...(transcriptOf ? { transcript: JSON.stringify(transcriptOf(d)) } : {}),
    email: {
      id: emailId,
      inboxId: d.inboxId,
      messageId,
      fromAddress: from,
      toAddress: storableText(d.recipient),
      subject,
      snippet,
      bodyText,
      bodyHtml,
      headers,
      extracted,
      authentication,
      spam,
      sizeBytes: raw.length,
      rawKey,
      receivedAt,
      attachments,
    },
    outbox: outboxRow(
      namespace,
      newEvent("email.received", {
        org_id: d.scope.orgId,
        team_id: d.scope.teamId,
        data: {
          email_id: emailId,
          inbox_id: d.inboxId,
          team_id: d.scope.teamId,
          from,
          to: d.recipient,
          subject,
          received_at: receivedAt.toISOString(),
          size_bytes: raw.length,
          created_by: d.createdBy,
          extracted,
          authentication,
          spam,
          summary: receivedSummary(
            {
              id: emailId,
              inboxId: d.inboxId,
              fromAddress: from,
              subject,
              snippet,
              sizeBytes: raw.length,
              receivedAt,
              attachments,
            },
            authentication,
            spam,
          ),
        },
      }),
    ),
  }));
  // throws when an inbox was removed since RCPT TO (nothing of the message is stored): the sender
  // retries and is then refused
  await deps.data.hot.intake.receive(received);
  return received.map((r) => r.email.id);
}
