import type { WaitQueryWire } from "./extensions.js";

/** Matchers of `GET /inboxes/{id}/emails/wait` (extensions section 1); every one given must hold. */
export interface EmailMatchers {
  /** Case-insensitive substring of the From address or name. */
  from?: string;
  /** Case-insensitive substring of any address or name in To or Cc. */
  to?: string;
  /** Case-insensitive substring of the subject. */
  subject?: string;
  /** Case-insensitive substring of the body (text part, else the HTML part's visible text). */
  body?: string;
  /** An RE2 pattern (at most 256 characters) the subject matches. */
  subjectRe?: string;
  /** An RE2 pattern (at most 256 characters) the body matches. */
  bodyRe?: string;
  /** Headers that must have exactly these values: `{"X-Test-Run": id}`, or `"Name: value"` strings. */
  headers?: Record<string, string> | string | string[];
  /** Only unread emails. */
  unread?: boolean;
}

export interface WaitOptions extends EmailMatchers {
  /** How many matching emails to wait for: 1 to 100 (default 1). */
  count?: number;
  /** Milliseconds (a number), or a duration `0`, `500ms`, `10s`, `2m`: at most 120 s (default 30 s). */
  timeout?: number | string;
  /** Only emails received after this time, or after the email with this id. */
  since?: Date | string;
  /** Aborts the wait. */
  signal?: AbortSignal;
}

/** The query string fields of a wait, as the server reads them. Pure; throws TypeError on a value the server would refuse for its type. */
export function buildWaitQuery(opts: WaitOptions = {}): WaitQueryWire {
  const q: WaitQueryWire = {};
  if (opts.from !== undefined) q.from = opts.from;
  if (opts.to !== undefined) q.to = opts.to;
  if (opts.subject !== undefined) q.subject = opts.subject;
  if (opts.body !== undefined) q.body = opts.body;
  if (opts.subjectRe !== undefined) q.subject_re = opts.subjectRe;
  if (opts.bodyRe !== undefined) q.body_re = opts.bodyRe;
  const headers = headerLines(opts.headers);
  if (headers.length > 0) q.header = headers;
  if (opts.since !== undefined) {
    if (opts.since instanceof Date) {
      if (Number.isNaN(opts.since.getTime())) throw new TypeError("since is an invalid Date");
      q.since = opts.since.toISOString();
    } else q.since = opts.since;
  }
  if (opts.unread) q.unread = true;
  if (opts.count !== undefined) {
    if (!Number.isInteger(opts.count)) throw new TypeError("count must be an integer");
    q.count = opts.count;
  }
  if (opts.timeout !== undefined) q.timeout = formatTimeout(opts.timeout);
  return q;
}

/** A number of milliseconds as the wait's duration syntax (`1500` -> `1500ms`, `0` -> `0`); a string as given. */
export function formatTimeout(timeout: number | string): string {
  if (typeof timeout === "string") return timeout;
  if (!Number.isFinite(timeout) || timeout < 0) throw new TypeError("timeout must be a non-negative number of milliseconds");
  const ms = Math.round(timeout);
  return ms === 0 ? "0" : `${ms}ms`;
}

function headerLines(h: EmailMatchers["headers"]): string[] {
  if (h === undefined) return [];
  if (typeof h === "string") return [h];
  if (Array.isArray(h)) return [...h];
  return Object.entries(h).map(([name, value]) => {
    if (name.includes(":")) throw new TypeError(`header name ${JSON.stringify(name)} contains a colon`);
    return `${name}: ${value}`;
  });
}
