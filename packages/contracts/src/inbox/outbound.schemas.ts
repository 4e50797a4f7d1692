import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** Extensions section 10: limits of one outgoing message. */
export const OUTBOUND_LIMITS = {
  /** Every attachment's decoded bytes together. */
  attachmentsMaxBytes: 10 * 1024 * 1024,
  recipientsMax: 50,
  subjectMaxChars: 998,
  bodyMaxChars: 5 * 1024 * 1024,
  headersMax: 50,
} as const;

/** An address as a recipient: a plain `local@domain` (no display name). */
export const OutboundAddress = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@<>(),;:"[\]\\]+@[A-Za-z0-9.-]+\.[A-Za-z0-9-]+$/, "must be an email address");

const Recipients = z.array(OutboundAddress).min(1).max(OUTBOUND_LIMITS.recipientsMax);

export const OutboundAttachment = z
  .object({
    filename: z.string().min(1).max(255),
    content_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a media type")
      .max(255),
    content_base64: z.string().regex(/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/, "must be base64"),
  })
  .strict()
  .openapi("OutboundAttachment");
export type OutboundAttachment = z.infer<typeof OutboundAttachment>;

/** The decoded size of a base64 string (without decoding it). */
export const base64Bytes = (b64: string): number => {
  const s = b64.replace(/\s+/g, "");
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
};

const withBodyRules = <T extends z.ZodType<{ text?: string; html?: string; attachments?: OutboundAttachment[] }>>(schema: T) =>
  schema
    .refine((b) => b.text !== undefined || b.html !== undefined, {
      message: "at least one of text and html",
      path: ["text"],
    })
    .refine((b) => (b.attachments ?? []).reduce((n, a) => n + base64Bytes(a.content_base64), 0) <= OUTBOUND_LIMITS.attachmentsMaxBytes, {
      message: "attachments: at most 10 MiB in all",
      path: ["attachments"],
    });

const Body = {
  text: z.string().max(OUTBOUND_LIMITS.bodyMaxChars).optional(),
  html: z.string().max(OUTBOUND_LIMITS.bodyMaxChars).optional(),
  attachments: z.array(OutboundAttachment).max(20).optional(),
};

export const ReleaseEmailBody = z.object({ to: Recipients }).strict().openapi("ReleaseEmailRequest");
export type ReleaseEmailBody = z.infer<typeof ReleaseEmailBody>;

export const ReplyEmailBody = withBodyRules(z.object({ ...Body, reply_all: z.boolean().default(false) }).strict()).openapi(
  "ReplyEmailRequest",
);
export type ReplyEmailBody = z.infer<typeof ReplyEmailBody>;

/** Header names the sender may set: not those BurnBox writes itself. */
export const RESERVED_HEADERS = [
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "dkim-signature",
  "sender",
  "return-path",
] as const;

export const SendEmailBody = withBodyRules(
  z
    .object({
      to: Recipients,
      cc: z.array(OutboundAddress).max(OUTBOUND_LIMITS.recipientsMax).optional(),
      subject: z
        .string()
        .max(OUTBOUND_LIMITS.subjectMaxChars)
        .regex(/^[^\r\n]*$/, "subject: one line"),
      ...Body,
      headers: z
        .record(
          z.string().regex(/^[!-9;-~]{1,76}$/, "header name"),
          z
            .string()
            .max(998)
            .regex(/^[^\r\n]*$/, "header value: one line"),
        )
        .refine((h) => Object.keys(h).length <= OUTBOUND_LIMITS.headersMax, "at most 50 headers")
        .refine((h) => Object.keys(h).every((k) => !(RESERVED_HEADERS as readonly string[]).includes(k.toLowerCase())), {
          message: `headers: may not set ${RESERVED_HEADERS.join(", ")}`,
        })
        .optional(),
    })
    .strict(),
).openapi("SendEmailRequest");
export type SendEmailBody = z.infer<typeof SendEmailBody>;

export const OutboundQueued = z.object({ outbound_id: Uuid, message_id: z.string() }).openapi("OutboundQueued");
export type OutboundQueued = z.infer<typeof OutboundQueued>;

export const OutboundKind = z.enum(["release", "reply", "send"]);
export type OutboundKind = z.infer<typeof OutboundKind>;
export const OutboundStatus = z.enum(["queued", "sent", "failed"]);
export type OutboundStatus = z.infer<typeof OutboundStatus>;

export const OutboundMessage = z
  .object({
    id: Uuid,
    message_id: z.string(),
    at: Timestamp,
    kind: OutboundKind,
    to: z.array(z.string()),
    subject: z.string(),
    status: OutboundStatus,
    attempts: z.number().int(),
    /** The last SMTP reply (or connection error) of a delivery attempt; null before the first. */
    last_reply: z.string().nullable(),
  })
  .openapi("OutboundMessage");
export type OutboundMessage = z.infer<typeof OutboundMessage>;

export const ListOutboundQuery = PaginationQuery.strict();
export type ListOutboundQuery = z.infer<typeof ListOutboundQuery>;
