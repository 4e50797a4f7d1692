// The wait's types (extensions.md section 1) come from src/generated/openapi.ts; the `extracted`
// field (section 2) is hand-written here until email summaries carry it in packages/contracts:
// then regenerate, and point `Extracted`, `WaitEmailSummary` and `WaitResponse` at
// `components["schemas"][…]`.
import type { components, operations } from "./generated/openapi.js";

/** What a link in a mail is for (extensions section 2). */
export type LinkKind = "verify" | "reset" | "magic_link" | "unsubscribe" | "other";

export interface ExtractedCode {
  /** The code as typed: digits, or capital letters and digits (`123 456` gives `123456`). */
  value: string;
  /** Up to 60 characters of the text around the code, the code included. */
  context: string;
}

export interface ExtractedLink {
  url: string;
  /** The anchor's text; empty for a URL from the text part or a List-Unsubscribe header. */
  text: string;
  kind: LinkKind;
}

/** One-time codes and links, computed once when the mail is received; empty lists, never null. */
export interface Extracted {
  codes: ExtractedCode[];
  links: ExtractedLink[];
}

/** An email summary as the wait answers it: the list item plus `extracted`. */
export type WaitEmailSummary = components["schemas"]["EmailSummary"] & { extracted: Extracted };

/** The 200 answer of `GET /inboxes/{id}/emails/wait`: `{data, matched, timed_out}`, each email with `extracted`. */
export type WaitResponse = Omit<components["schemas"]["WaitForEmailsResult"], "data"> & { data: WaitEmailSummary[] };

/** The query of `GET /inboxes/{id}/emails/wait`, as it goes on the wire. */
export type WaitQueryWire = NonNullable<operations["waitForEmails"]["parameters"]["query"]>;
