import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { Authentication, AuthenticationSummary } from "./authentication.schemas";
import { Extracted } from "./extracted.schemas";
import { SpamResult } from "./spam.schemas";

/** One line of every email list (an inbox's, a demo inbox's, a wait's); the `email.received` WebSocket frame has the same shape. */
export const EmailSummary = z
  .object({
    id: Uuid,
    inbox_id: Uuid,
    from_address: z.string(),
    subject: z.string(),
    snippet: z.string(),
    has_attachments: z.boolean(),
    is_read: z.boolean(),
    size_bytes: z.number().int(),
    received_at: Timestamp,
    extracted: Extracted,
    authentication_summary: AuthenticationSummary,
    /** Extensions section 9: rspamd's score, null when not scored (unavailable or disabled). */
    spam_score: z.number().nullable(),
    /**
     * rspamd's required score for this email (its `spam.required_score`), null when not scored: what
     * `spam_score` is compared with (a list's spam marker) without reading the email. Additive to section 9.
     */
    spam_required_score: z.number().nullable(),
  })
  .openapi("EmailSummary");
export type EmailSummary = z.infer<typeof EmailSummary>;

export const Attachment = z
  .object({ id: Uuid, filename: z.string(), content_type: z.string(), size_bytes: z.number().int() })
  .openapi("Attachment");

export const Email = z
  .object({
    id: Uuid,
    inbox_id: Uuid,
    message_id: z.string().nullable(),
    from_address: z.string(),
    to_address: z.string(),
    subject: z.string(),
    body_text: z.string().nullable(),
    body_html: z.string().nullable(),
    headers: z.record(z.string(), z.string()),
    size_bytes: z.number().int(),
    is_read: z.boolean(),
    received_at: Timestamp,
    attachments: z.array(Attachment),
    extracted: Extracted,
    authentication: Authentication.nullable(),
    spam: SpamResult,
  })
  .openapi("Email");
export type Email = z.infer<typeof Email>;

export const ListEmailsQuery = PaginationQuery.extend({
  q: z
    .string()
    .max(200)
    .optional()
    .openapi({
      description:
        'A search (every term must hold; case-insensitive): words and "quoted phrases" match a substring of the subject or the ' +
        "sender, or whole words of the text body (a phrase: its words in that order; the body's first 100,000 characters); " +
        "`from:x`, `to:x`, `subject:x` (values may be quoted) match a substring of that field; `has:attachment`; `is:read`, " +
        "`is:unread`; `spam:>N`, `spam:<N`, `spam:>=N`, `spam:<=N` (the spam score; unscored mail never matches); `after:D` (received at or after) and `before:D` (strictly before) take YYYY-MM-DD (midnight UTC) or an ISO " +
        "8601 time with Z or an offset; `-` before a term negates it; at most 20 terms. A term that cannot be read (an unknown " +
        "`name:` prefix, an operator without a value, an unterminated quote, a bad date) is 400 validation_error naming it.",
      example: 'from:billing@ invoice -is:read after:2026-03-01 subject:"your order"',
    }),
});

export const UpdateEmailBody = z.object({ is_read: z.boolean() }).openapi("UpdateEmailRequest");
export type UpdateEmailBody = z.infer<typeof UpdateEmailBody>;

export const MarkAllReadResult = z.object({ marked: z.number().int() }).openapi("MarkAllReadResult");
export type MarkAllReadResult = z.infer<typeof MarkAllReadResult>;

export const AttachmentParams = z.object({ id: Uuid, aid: Uuid });

/** A stored object's key, as `<inbox id>/<email id>/<file>`. */
export const FileQuery = z.object({ key: z.string().min(1).max(300) });
