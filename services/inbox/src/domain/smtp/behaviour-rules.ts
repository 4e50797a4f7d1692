import { createHash } from "node:crypto";
import { SmtpBehaviour } from "@burnbox/contracts";

/** An SMTP reply the intake gives because of an inbox's behaviour. */
export interface BehaviourReply {
  code: number;
  /** The text after the code (the whole line is `<code> <text>`). */
  text: string;
}

/** What the intake keeps of a recipient's inbox to apply its behaviour. */
export interface BehaviourOf {
  inboxId: string;
  behaviour: SmtpBehaviour | null;
}

export const TOO_BIG: BehaviourReply = { code: 552, text: "5.3.4 Message size exceeds fixed maximum message size" };
export const DEFERRED: BehaviourReply = { code: 451, text: "4.7.1 Please try again later" };

/**
 * The stored behaviour as the intake applies it: null when none (or when the stored value is not
 * one, which never happens through the API).
 */
export function behaviourFrom(stored: unknown): SmtpBehaviour | null {
  if (stored === null || stored === undefined) return null;
  const parsed = SmtpBehaviour.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * The reply to RCPT TO for an inbox with this behaviour: its `reject_rcpt` as it is, else 552 when
 * MAIL FROM declared a `SIZE=` above its `max_size_bytes`; null to accept.
 */
export function rcptVerdict(behaviour: SmtpBehaviour | null, declaredSize: number | null): BehaviourReply | null {
  if (!behaviour) return null;
  if (behaviour.reject_rcpt) return { code: behaviour.reject_rcpt.code, text: behaviour.reject_rcpt.message };
  if (behaviour.max_size_bytes != null && declaredSize !== null && declaredSize > behaviour.max_size_bytes) return TOO_BIG;
  return null;
}

/** Whether a message of `size` bytes (as received, dot-unstuffed) is above any recipient inbox's limit. */
export function tooBigFor(recipients: readonly BehaviourOf[], size: number): boolean {
  return recipients.some((r) => r.behaviour?.max_size_bytes != null && size > r.behaviour.max_size_bytes);
}

/** How long the final reply to DATA is held: the longest `delay_ms` of the recipients' inboxes. */
export function heldForMs(recipients: readonly BehaviourOf[]): number {
  return recipients.reduce((ms, r) => Math.max(ms, r.behaviour?.delay_ms ?? 0), 0);
}

/** The `SIZE=` parameter of MAIL FROM (RFC 1870), null when absent or not a number. */
export function declaredSizeOf(args: unknown): number | null {
  const raw = (args as { SIZE?: unknown } | null | undefined)?.SIZE;
  if (typeof raw !== "string" || !/^\d{1,20}$/.test(raw)) return null;
  return Number(raw);
}

/**
 * The key of one message to one inbox, by which its attempts are counted (`defer_first`): its
 * sender, recipient and Message-ID, in the inbox (a new inbox at the same address starts afresh).
 * Hashed: the parts are the sender's text, of any length.
 */
export function attemptKey(input: { inboxId: string; mailFrom: string; rcptTo: string; messageId: string | null }): string {
  const digest = createHash("sha256")
    .update(`${input.mailFrom.toLowerCase()}\n${input.rcptTo.toLowerCase()}\n${input.messageId ?? ""}`)
    .digest("base64url");
  return `${input.inboxId}:${digest}`;
}

/** Whether the attempt numbered `attempt` (from 1) of a message is deferred by `defer_first`. */
export function deferred(behaviour: SmtpBehaviour | null, attempt: number): boolean {
  return behaviour?.defer_first != null && attempt <= behaviour.defer_first;
}

/** At most this much of a message is searched for its header block. */
const HEADER_SEARCH_BYTES = 256 * 1024;

/**
 * The Message-ID header of a raw message (the first one, unfolded, trimmed), without parsing the
 * message: the deferral is decided before the parser runs. Null when there is none.
 */
export function messageIdOf(raw: Buffer): string | null {
  const head = raw.subarray(0, HEADER_SEARCH_BYTES).toString("latin1");
  const end = head.search(/\r?\n\r?\n/);
  const block = (end >= 0 ? head.slice(0, end) : head).replace(/\r?\n[ \t]+/g, " ");
  const match = /^message-id[ \t]*:(.*)$/im.exec(block);
  const value = match?.[1]?.trim();
  return value ? value.slice(0, 998) : null;
}
