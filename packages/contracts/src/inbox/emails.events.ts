import { z } from "../zod";
import { Authentication, AuthenticationSummary } from "./authentication.schemas";
import { EmailSummary } from "./emails.schemas";
import { Extracted, nothingExtracted } from "./extracted.schemas";
import { SpamResult } from "./spam.schemas";
import { envelope } from "../messaging/envelope";

/** The inbox service (its SMTP intake): an email was received. */
export const EmailsEventType = {
  emailReceived: "email.received",
} as const;

export const EmailReceivedData = z.object({
  email_id: z.string().uuid(),
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  received_at: z.string(),
  /** The raw message's size in bytes (analytics: storage); absent on events from before it was added. */
  size_bytes: z.number().int().nonnegative().optional(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
  /**
   * Summary for WebSocket frames (contract notes: email summary with inbox_id), the REST list item
   * without `extracted` (carried once, below; the frame is the summary with it).
   */
  summary: EmailSummary.omit({ extracted: true, authentication_summary: true, spam_score: true, spam_required_score: true })
    // absent on events from before authentication results (and spam scores, and their required scores) existed
    .extend({
      authentication_summary: AuthenticationSummary.optional(),
      spam_score: z.number().nullable().optional(),
      spam_required_score: z.number().nullable().optional(),
    })
    .optional(),
  /**
   * The codes and links found at intake (extensions section 2), in the webhook body and the
   * WebSocket frame; read as empty lists on events from before it was added.
   */
  extracted: Extracted.default(nothingExtracted),
  /**
   * The authentication results worked out at intake (extensions section 3), in the webhook body;
   * null when the intake had them turned off, absent on events from before they existed.
   */
  authentication: Authentication.nullable().optional(),
  /** The spam score asked of rspamd at intake (extensions section 9); absent on events from before it existed. */
  spam: SpamResult.optional(),
});

export const EmailReceivedEvent = envelope(EmailsEventType.emailReceived, EmailReceivedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const emailsEvents = [EmailReceivedEvent] as const;
