import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { Authentication, AuthenticationSummary } from "./authentication.schemas";
import { Extracted } from "./extracted.schemas";

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
  })
  .openapi("Email");
export type Email = z.infer<typeof Email>;

export const ListEmailsQuery = PaginationQuery.extend({ q: z.string().max(200).optional() });

export const UpdateEmailBody = z.object({ is_read: z.boolean() }).openapi("UpdateEmailRequest");
export type UpdateEmailBody = z.infer<typeof UpdateEmailBody>;

export const MarkAllReadResult = z.object({ marked: z.number().int() }).openapi("MarkAllReadResult");
export type MarkAllReadResult = z.infer<typeof MarkAllReadResult>;

export const AttachmentParams = z.object({ id: Uuid, aid: Uuid });

/** A stored object's key, as `<inbox id>/<email id>/<file>`. */
export const FileQuery = z.object({ key: z.string().min(1).max(300) });
