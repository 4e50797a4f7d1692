import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** The bounds of an inbox's SMTP behaviour (extensions section 8). */
export const SMTP_BEHAVIOUR_LIMITS = {
  rejectCodeMin: 450,
  rejectCodeMax: 599,
  rejectMessageMaxChars: 200,
  deferFirstMax: 10,
  delayMsMax: 30_000,
} as const;

/** One line of printable ASCII: what an SMTP reply may carry after its code. */
const REPLY_TEXT = /^[\x20-\x7e]+$/;

export const SmtpRejectRcpt = z
  .object({
    code: z.number().int().min(SMTP_BEHAVIOUR_LIMITS.rejectCodeMin).max(SMTP_BEHAVIOUR_LIMITS.rejectCodeMax),
    message: z
      .string()
      .min(1)
      .max(SMTP_BEHAVIOUR_LIMITS.rejectMessageMaxChars)
      .regex(REPLY_TEXT, "message: one line of printable ASCII")
      .openapi({ description: "The reply's text after the code, sent as is (e.g. `5.7.1 Relaying denied`)" }),
  })
  .strict()
  .openapi("SmtpRejectRcpt");
export type SmtpRejectRcpt = z.infer<typeof SmtpRejectRcpt>;

/**
 * How the SMTP intake misbehaves for one inbox, so that a team can test how its sender copes
 * (extensions section 8). Every field absent or null: normal behaviour.
 */
export const SmtpBehaviour = z
  .object({
    reject_rcpt: SmtpRejectRcpt.nullable().optional().openapi({
      description: "RCPT TO for this inbox answers exactly `<code> <message>`; the transaction's other recipients are unaffected",
    }),
    defer_first: z
      .number()
      .int()
      .min(1)
      .max(SMTP_BEHAVIOUR_LIMITS.deferFirstMax)
      .nullable()
      .optional()
      .openapi({
        description:
          "The first n attempts of each message get `451` at the end of DATA, then it is accepted (as greylisting does). " +
          "Attempts are recognised by sender, recipient and Message-ID across connections and intake replicas; once a " +
          "message was accepted, later copies are accepted at once. An attempt counts when its DATA is complete and not " +
          "refused for its size; the count is kept for a day after the last attempt.",
      }),
    delay_ms: z.number().int().min(0).max(SMTP_BEHAVIOUR_LIMITS.delayMsMax).nullable().optional().openapi({
      description: "The final reply to DATA (after the body), whatever it is, is held at least this long",
    }),
    max_size_bytes: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .openapi({
        description:
          "A message larger than this as received (after dot-unstuffing) gets `552` at the end of DATA; a `SIZE=` declared " +
          "on MAIL FROM above it gets `552` as soon as the inbox is named (its RCPT TO, since MAIL names no recipient)",
      }),
  })
  .strict()
  .openapi("SmtpBehaviour");
export type SmtpBehaviour = z.infer<typeof SmtpBehaviour>;

/**
 * A behaviour with its unset fields dropped, or null when nothing is set (normal behaviour): the
 * one form stored and shown.
 */
export function normalizedSmtpBehaviour(b: SmtpBehaviour | null | undefined): SmtpBehaviour | null {
  if (!b) return null;
  const out: SmtpBehaviour = {};
  if (b.reject_rcpt != null) out.reject_rcpt = { code: b.reject_rcpt.code, message: b.reject_rcpt.message };
  if (b.defer_first != null) out.defer_first = b.defer_first;
  if (b.delay_ms != null) out.delay_ms = b.delay_ms;
  if (b.max_size_bytes != null) out.max_size_bytes = b.max_size_bytes;
  return Object.keys(out).length > 0 ? out : null;
}

export const SmtpTranscriptLine = z
  .object({
    at: Timestamp,
    /** `c`: a command the client sent; `s`: a reply of the server. */
    dir: z.enum(["c", "s"]),
    text: z.string(),
  })
  .openapi("SmtpTranscriptLine");
export type SmtpTranscriptLine = z.infer<typeof SmtpTranscriptLine>;

/**
 * What was said on the connection for one message: the session's start (greeting, EHLO, STARTTLS)
 * and that message's transaction, without the message itself (the DATA body) and with AUTH
 * credentials replaced by a placeholder.
 */
export const SmtpTranscript = z
  .object({
    client_ip: z.string(),
    /** The name the client gave in HELO/EHLO (null when it gave none). */
    helo: z.string().nullable(),
    /** Whether the connection was encrypted (STARTTLS) when the transaction ended. */
    tls: z.boolean(),
    lines: z.array(SmtpTranscriptLine),
  })
  .openapi("SmtpTranscript");
export type SmtpTranscript = z.infer<typeof SmtpTranscript>;

/** One refused or deferred attempt to deliver to an inbox with an SMTP behaviour. */
export const SmtpAttempt = z
  .object({
    id: Uuid,
    at: Timestamp,
    mail_from: z.string(),
    rcpt_to: z.string(),
    /** The message's Message-ID; null when it was refused before DATA, or it has none. */
    message_id: z.string().nullable(),
    code: z.number().int(),
    /** The whole reply line, code included. */
    reply: z.string(),
    transcript: SmtpTranscript,
  })
  .openapi("SmtpAttempt");
export type SmtpAttempt = z.infer<typeof SmtpAttempt>;

export const ListSmtpLogQuery = PaginationQuery;
export type ListSmtpLogQuery = z.infer<typeof ListSmtpLogQuery>;

/** How the behaviour works, for the OpenAPI descriptions of the operations that set it. */
export const SMTP_BEHAVIOUR_DESCRIPTION = [
  "SMTP behaviour (extensions section 8), every field optional:",
  "",
  `- \`reject_rcpt {code ${SMTP_BEHAVIOUR_LIMITS.rejectCodeMin}..${SMTP_BEHAVIOUR_LIMITS.rejectCodeMax}, message}\`: RCPT TO for this inbox answers`,
  "  exactly `<code> <message>`; the transaction's other recipients are unaffected.",
  `- \`defer_first 1..${SMTP_BEHAVIOUR_LIMITS.deferFirstMax}\`: the first n attempts of each message get \`451\` at the end of DATA, then`,
  "  it is accepted, as greylisting does. An attempt is recognised by its sender (MAIL FROM), recipient and",
  "  Message-ID, on any connection and any intake replica; once accepted, later copies are accepted at once.",
  `- \`delay_ms 0..${SMTP_BEHAVIOUR_LIMITS.delayMsMax}\`: the final reply to DATA is held at least this long after the body.`,
  "- `max_size_bytes 1..`: a message larger than this (after dot-unstuffing) gets `552` at the end of DATA; a larger",
  "  `SIZE=` declared on MAIL FROM gets `552` at this inbox's RCPT TO (MAIL names no recipient yet).",
  "",
  "With several recipients in one transaction, the one reply to DATA is the refusal if any recipient's inbox",
  "refuses (nothing is stored then), and it waits for the longest delay. A change applies to every SMTP transaction",
  "that starts after this answer, on every intake replica. Refused and deferred attempts are listed at",
  "`GET /inboxes/{id}/smtp-log`; every stored email keeps its transcript (`GET /emails/{id}/transcript`).",
].join("\n");
