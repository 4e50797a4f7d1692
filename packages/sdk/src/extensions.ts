// Hand-written types for the extension operations that the OpenAPI document does not describe
// yet (extensions.md sections 1 and 2). They move to src/generated/openapi.ts once
// `GET /inboxes/{id}/emails/wait` and the `extracted` field are in packages/contracts: then
// delete `ExtensionPaths` and these shapes, regenerate, and point the names below at
// `components["schemas"][…]`.
import type { components } from "./generated/openapi.js";

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

/** The 200 answer of `GET /inboxes/{id}/emails/wait`. */
export interface WaitResponse {
  /** The first `count` matching emails, oldest first. */
  data: WaitEmailSummary[];
  /** Every matching email at answer time. */
  matched: number;
  /** True when fewer than `count` matched before `timeout`. */
  timed_out: boolean;
}

/** The query of `GET /inboxes/{id}/emails/wait`, as it goes on the wire. */
export interface WaitQueryWire {
  from?: string;
  to?: string;
  subject?: string;
  body?: string;
  subject_re?: string;
  body_re?: string;
  /** `Name: value`; repeated, all must hold. */
  header?: string[];
  /** An ISO 8601 time or the id of an email of this inbox. */
  since?: string;
  unread?: "true" | "false";
  /** 1 to 100 (default 1). */
  count?: number;
  /** `0`, `500ms`, `10s`, `2m`: 0 to 120 s (default 30s). */
  timeout?: string;
}

type ErrorContent = { content: { "application/json": components["schemas"]["Error"] } };

/** The wait as openapi-fetch sees it, merged with the generated `paths` by the client. */
export interface ExtensionPaths {
  "/inboxes/{id}/emails/wait": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: WaitQueryWire; header?: never; path: { id: string }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": WaitResponse } };
        400: { headers: { [name: string]: unknown } } & ErrorContent;
        401: { headers: { [name: string]: unknown } } & ErrorContent;
        403: { headers: { [name: string]: unknown } } & ErrorContent;
        404: { headers: { [name: string]: unknown } } & ErrorContent;
        429: {
          headers: { [name: string]: unknown };
          content: { "application/json": components["schemas"]["RateLimited"] };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
