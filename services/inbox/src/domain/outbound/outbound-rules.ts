import { randomUUID } from "node:crypto";

/** Extensions 10 and spec 6.3: the pure rules of mail out. */

/** `local@domain` lowercased, without a display name or angle brackets. */
export const normalAddress = (address: string): string => address.trim().toLowerCase();

const domainOf = (address: string): string => address.slice(address.lastIndexOf("@") + 1);

/**
 * Whether an org's `outbound.allowed_recipients` lets `address` through: an entry is an address
 * (that address), `@domain` (addresses at exactly that domain) or `*.domain` (addresses at any
 * subdomain of it, not the domain itself). Case does not matter.
 */
export function recipientAllowed(address: string, patterns: readonly string[]): boolean {
  const a = normalAddress(address);
  const domain = domainOf(a);
  return patterns.some((raw) => {
    const p = raw.trim().toLowerCase();
    if (p.startsWith("*.")) return domain.endsWith(p.slice(1)) && domain.length > p.length - 1;
    if (p.startsWith("@")) return domain === p.slice(1);
    return a === p;
  });
}

/** The first recipient neither BurnBox's own nor allowed by the org, or null when every one may be reached. */
export function firstRefused(recipients: readonly string[], local: ReadonlySet<string>, patterns: readonly string[]): string | null {
  return recipients.find((r) => !local.has(normalAddress(r)) && !recipientAllowed(r, patterns)) ?? null;
}

/** `Re: ` before the subject unless it already starts with one (any case, `Re:` or `RE :`). */
export function replySubject(subject: string): string {
  const s = subject.trim();
  return /^re\s*:/i.test(s) ? s : `Re: ${s}`;
}

/** RFC 5322 3.6.4: the parent's References (else its In-Reply-To) followed by its Message-ID. */
export function replyReferences(parent: { messageId: string | null; references: string | null; inReplyTo: string | null }): string | null {
  const before = (parent.references ?? parent.inReplyTo ?? "").match(/<[^<>\s]+>/g) ?? [];
  const ids = parent.messageId ? [...before.filter((id) => id !== parent.messageId), parent.messageId] : before;
  return ids.length > 0 ? ids.join(" ") : null;
}

/**
 * Whom a reply goes to: the parent's Reply-To, else its From; with `replyAll` also its other To
 * and Cc recipients. The inbox itself is never among them, and no address comes twice.
 */
export function replyRecipients(
  parent: { replyTo: string[]; from: string[]; to: string[]; cc: string[] },
  inboxAddress: string,
  replyAll: boolean,
): { to: string[]; cc: string[] } {
  const self = normalAddress(inboxAddress);
  const seen = new Set<string>([self]);
  const take = (list: string[]) =>
    list.map(normalAddress).filter((a) => {
      if (a === "" || seen.has(a)) return false;
      seen.add(a);
      return true;
    });
  const to = take(parent.replyTo.length > 0 ? parent.replyTo : parent.from);
  if (!replyAll) return { to, cc: [] };
  return { to: [...to, ...take(parent.to)], cc: take(parent.cc) };
}

/** A new Message-ID on the sending inbox's domain, fixed when the message is queued. */
export const newMessageId = (domain: string): string => `<${randomUUID()}@${domain}>`;

/** Spec 6.3: the delay before attempt `n` (1-based): none, then 5 s, then five times the one before. */
export const retryDelayMs = (attempt: number): number => (attempt <= 1 ? 0 : 5000 * 5 ** (attempt - 2));

/** How an SMTP answer (or a connection failure: no code) decides a message's next state. */
export type AttemptVerdict = "sent" | "retry" | "failed";

/** 2xx: sent; 5xx: failed with the reply; a 4xx or no answer: retried while attempts remain, then failed. */
export function attemptVerdict(code: number | null, attempt: number, maxAttempts: number): AttemptVerdict {
  if (code !== null && code >= 200 && code < 300) return "sent";
  if (code !== null && code >= 500) return "failed";
  return attempt < maxAttempts ? "retry" : "failed";
}

/** The `Resent-*` block (RFC 5322 3.6.6) put on top of a released message, in the order the RFC lists them. */
export function resentHeaders(h: { from: string; to: readonly string[]; date: Date; messageId: string }): string {
  return [
    `Resent-From: ${h.from}`,
    `Resent-To: ${h.to.join(", ")}`,
    `Resent-Date: ${h.date.toUTCString().replace("GMT", "+0000")}`,
    `Resent-Message-ID: ${h.messageId}`,
  ]
    .map((l) => `${l}\r\n`)
    .join("");
}
