import { RE2JS, RE2JSException } from "re2js";
import { WAIT_LIMITS, type HeaderMatch, type WaitForEmailsQuery } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { MailAddress } from "./addresses";
import { countedRepetitionTotal } from "./pattern-bounds";

/** Where an email stands in an inbox's order: by `received_at`, then by id (the list's order, oldest first here). */
export interface EmailCursor {
  receivedAt: Date;
  id: string;
}

/**
 * `since`, resolved: only emails after this point count. From a time, `id` is null and an email
 * counts when `received_at > receivedAt`; from an email of the inbox (the repository looks up
 * its cursor), an email counts when `(received_at, id) > (receivedAt, id)`, ids compared as
 * lower-case UUID text (Postgres orders uuid the same way).
 */
export interface WaitAfter {
  receivedAt: Date;
  id: string | null;
}

export const afterTime = (at: Date): WaitAfter => ({ receivedAt: at, id: null });
export const afterEmail = (cursor: EmailCursor): WaitAfter => ({ receivedAt: cursor.receivedAt, id: cursor.id.toLowerCase() });

export function isAfter(after: WaitAfter, email: EmailCursor): boolean {
  const a = email.receivedAt.getTime();
  const b = after.receivedAt.getTime();
  if (a !== b) return a > b;
  return after.id !== null && email.id.toLowerCase() > after.id;
}

/** What the matcher reads of an email; `bodyText` is `bodyTextOf(text part, HTML part)`. */
export interface WaitCandidate extends EmailCursor {
  isRead: boolean;
  /** The From mailboxes. */
  from: readonly MailAddress[];
  /** The To and Cc mailboxes. */
  recipients: readonly MailAddress[];
  subject: string;
  /** The text part, else the visible text of the HTML part (see `bodyTextOf`). */
  bodyText: string;
  /** Header values by name (any case); a repeated header as a list. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The spam score asked at intake (extensions section 9); null when not scored. */
  spamScore?: number | null;
}

/** The matchers of a wait: the parsed query without its `since` (resolved into `after`), `count` and `timeout`. */
export type WaitMatchQuery = Pick<
  WaitForEmailsQuery,
  "from" | "to" | "subject" | "body" | "subject_re" | "body_re" | "header" | "unread"
> & {
  after: WaitAfter | null;
  /** Extensions section 9: only emails scored at or below it. */
  spam_max?: number | undefined;
};

/**
 * A caller's pattern compiled by RE2 (re2js): matching is linear in the text, whatever the
 * pattern; JavaScript's backtracking RegExp never sees it. Linear is not cheap: the cost is the
 * text's length times the program's live instructions, so the program is bounded too (counted
 * repetition, nested counts multiplied, and the compiled size; `WAIT_LIMITS`). An invalid, too
 * long or too costly pattern is a validation error (400) naming the field and the bound.
 */
export function compilePattern(pattern: string, field: string): RE2JS {
  const refuse = (message: string) => errors.validation(`${field}: ${message}`, [{ path: field, message }]);
  if (pattern.length > WAIT_LIMITS.patternMaxChars) {
    throw errors.validation(`${field} must be at most ${WAIT_LIMITS.patternMaxChars} characters`, [
      { path: field, message: `at most ${WAIT_LIMITS.patternMaxChars} characters` },
    ]);
  }
  // before compiling: re2js itself allows a product of 1000, and compiles it
  if (countedRepetitionTotal(pattern) > WAIT_LIMITS.patternMaxRepeat) {
    throw refuse(`counted repetition too large (at most ${WAIT_LIMITS.patternMaxRepeat})`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    throw refuse(`not a valid RE2 expression: ${err.message.replace(/^error parsing regexp: /, "")}`);
  }
  const size = re.programSize();
  if (size > WAIT_LIMITS.patternMaxProgram) {
    throw refuse(`pattern too complex (at most ${WAIT_LIMITS.patternMaxProgram} instructions, this one compiles to ${size})`);
  }
  return re;
}

const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle);
const mailboxContains = (boxes: readonly MailAddress[], needle: string) =>
  boxes.some((b) => contains(b.address, needle) || contains(b.name, needle));

function headerHolds(headers: WaitCandidate["headers"], want: HeaderMatch): boolean {
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k.toLowerCase() !== want.name) continue;
    const values = typeof v === "string" ? [v] : v;
    if (values.some((value) => value.trim() === want.value)) return true;
  }
  return false;
}

/** What of an email the matchers of `query` read beyond its summary (the first read and the wakes select only that). */
export function columnsFor(query: Omit<WaitMatchQuery, "after">): { bodies: boolean; headers: boolean } {
  return {
    bodies: query.body !== undefined || query.body_re !== undefined,
    headers: query.from !== undefined || query.to !== undefined || (query.header ?? []).length > 0,
  };
}

/**
 * The predicate of a wait (extensions section 1): every given matcher must hold. Compiles the
 * patterns once, so an invalid one throws here, before anything is held.
 */
export function matcherFor(query: WaitMatchQuery): (email: WaitCandidate) => boolean {
  const subjectRe = query.subject_re !== undefined ? compilePattern(query.subject_re, "subject_re") : null;
  const bodyRe = query.body_re !== undefined ? compilePattern(query.body_re, "body_re") : null;
  const from = query.from?.toLowerCase();
  const to = query.to?.toLowerCase();
  const subject = query.subject?.toLowerCase();
  const body = query.body?.toLowerCase();
  const headers = query.header ?? [];
  const { after } = query;
  // extensions section 9: only mail scored at or below it (unscored mail never holds)
  const spamMax = query.spam_max;
  return (email) =>
    (!query.unread || !email.isRead) &&
    (after === null || isAfter(after, email)) &&
    (from === undefined || mailboxContains(email.from, from)) &&
    (to === undefined || mailboxContains(email.recipients, to)) &&
    (subject === undefined || contains(email.subject, subject)) &&
    (body === undefined || contains(email.bodyText, body)) &&
    headers.every((h) => headerHolds(email.headers, h)) &&
    (subjectRe === null || subjectRe.test(email.subject)) &&
    (bodyRe === null || bodyRe.test(email.bodyText)) &&
    (spamMax === undefined || (typeof email.spamScore === "number" && email.spamScore <= spamMax));
}
