import MailComposer from "nodemailer/lib/mail-composer";
import type { OutboundAttachment } from "@burnbox/contracts";

/** A new message as mail out builds it (send and reply); the Message-ID and Date are fixed by the caller. */
export interface ComposedMail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text?: string | undefined;
  html?: string | undefined;
  messageId: string;
  date: Date;
  inReplyTo?: string | null | undefined;
  references?: string | null | undefined;
  headers?: Record<string, string> | undefined;
  attachments?: OutboundAttachment[] | undefined;
}

/** The message's bytes (RFC 5322, MIME by nodemailer's composer), without a Bcc header or a DKIM signature. */
export function composeMail(m: ComposedMail): Promise<Buffer> {
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    ...(m.cc.length > 0 ? { cc: m.cc } : {}),
    subject: m.subject,
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.html !== undefined ? { html: m.html } : {}),
    messageId: m.messageId,
    date: m.date,
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
    ...(m.references ? { references: m.references } : {}),
    headers: m.headers ?? {},
    attachments: (m.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.content_type,
      content: a.content_base64.replace(/\s+/g, ""),
      encoding: "base64",
    })),
    // keep the given Message-ID; never add X-Mailer
    xMailer: false,
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((err, message) => (err ? reject(err) : resolve(message)));
  });
}
