import { WAIT_LIMITS } from "@burnbox/contracts";
import { bodyTextOf } from "../extraction/html-text";
import { headerValue } from "../extraction/extract";
import { addressesOf } from "./addresses";
import type { WaitCandidate } from "./wait-matcher";

/** The columns of a stored email the wait reads. */
export interface StoredEmailForWait {
  id: string;
  receivedAt: Date;
  isRead: boolean;
  fromAddress: string;
  subject: string;
  bodyText: string | null;
  bodyHtml: string | null;
  /** As stored: header name to value, a repeated header joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The spam score (extensions section 9); null when not scored. */
  spamScore?: number | null;
}

/**
 * A stored email as the wait's matcher reads it: From, To and Cc read from the headers (names
 * decoded), the body as text (the text part, else the HTML's visible text), of which the matchers
 * read the first `WAIT_LIMITS.bodyMatchMaxChars` characters (of an HTML part, the visible text of
 * its first `htmlMatchMaxChars`): what matching one email costs is bounded whatever its size.
 */
export function waitCandidateOf(row: StoredEmailForWait): WaitCandidate {
  const from = addressesOf(headerValue(row.headers, "from"));
  return {
    id: row.id,
    receivedAt: row.receivedAt,
    isRead: row.isRead,
    from: from.length ? from : [{ address: row.fromAddress, name: "" }],
    recipients: [...addressesOf(headerValue(row.headers, "to")), ...addressesOf(headerValue(row.headers, "cc"))],
    subject: row.subject,
    bodyText: matchedBody(row.bodyText, row.bodyHtml),
    headers: row.headers,
    spamScore: row.spamScore ?? null,
  };
}

/** The part of a body the wait's `body` and `body_re` read (see `waitCandidateOf`). */
export function matchedBody(text: string | null, html: string | null): string {
  const max = WAIT_LIMITS.bodyMatchMaxChars;
  return bodyTextOf(text?.slice(0, max), html?.slice(0, WAIT_LIMITS.htmlMatchMaxChars)).slice(0, max);
}
