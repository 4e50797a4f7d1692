// The wait's types (extensions.md section 1) and the `extracted` codes and links (section 2), named
// from the generated OpenAPI types (src/generated/openapi.ts).
import type { components, operations } from "./generated/openapi.js";

/** What a link in a mail is for (extensions section 2). */
export type LinkKind = components["schemas"]["ExtractedLink"]["kind"];
/** A one-time code: `value` as typed (`123 456` gives `123456`), `context` up to 60 characters around it. */
export type ExtractedCode = components["schemas"]["ExtractedCode"];
/** A link: `text` is the anchor's text, empty for a URL from the text part or a List-Unsubscribe header. */
export type ExtractedLink = components["schemas"]["ExtractedLink"];
/** One-time codes and links, computed once when the mail is received; empty lists, never null. */
export type Extracted = components["schemas"]["Extracted"];
/** SPF, DKIM, DMARC and ARC verdicts worked out when the mail was received (section 3); null on older mail. */
export type Authentication = components["schemas"]["Authentication"];
/** `GET /emails/{id}/html-check`: the HTML part against the caniemail data (section 7). */
export type HtmlCheck = components["schemas"]["HtmlCheck"];
/** `POST /emails/{id}/link-check`: each extracted link's answer, in order (section 7). */
export type LinkCheck = components["schemas"]["LinkCheck"];
/** An email summary as the wait answers it, with `extracted`. */
export type WaitEmailSummary = components["schemas"]["EmailSummary"];
/** The 200 answer of `GET /inboxes/{id}/emails/wait`: `{data, matched, timed_out}`. */
export type WaitResponse = components["schemas"]["WaitForEmailsResult"];

/** The query of `GET /inboxes/{id}/emails/wait`, as it goes on the wire. */
export type WaitQueryWire = NonNullable<operations["waitForEmails"]["parameters"]["query"]>;

/** A team's named baseline of its mail (section 12), with its latest comparison (null before the first). */
export type MailSnapshot = Omit<components["schemas"]["Snapshot"], "latest_comparison"> & { latest_comparison: SnapshotComparison | null };
/** One mask of a snapshot: an RE2 `pattern` and what a match becomes (`[masked]` by default). */
export type SnapshotMask = components["schemas"]["SnapshotMask"];
/** `POST /emails/{id}/compare`: subject, From, text, links and pictures against the baseline. */
export type SnapshotComparison = components["schemas"]["SnapshotComparison"];
