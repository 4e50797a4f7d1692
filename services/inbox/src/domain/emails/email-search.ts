import { errors } from "@burnbox/service-kit/runtime";

/**
 * The search syntax of `q` on an inbox's email list (README, "Searching mail"): words and quoted
 * phrases match the subject, the text body or the sender; `from:`, `to:` and `subject:` match that
 * field; `has:attachment`, `is:read` / `is:unread`; `before:` / `after:` take a date (YYYY-MM-DD,
 * midnight UTC) or an ISO 8601 time; `spam:>N`, `spam:>=N`, `spam:<N`, `spam:<=N` compare the spam score
 * (extensions section 9; an unscored email holds none of them); `-` before any term negates it. Every term must hold (AND).
 * Matching is case-insensitive and by substring.
 */
export type SearchTerm =
  | { kind: "text" | "from" | "to" | "subject"; value: string; negated: boolean }
  | { kind: "has_attachment"; negated: boolean }
  | { kind: "read"; read: boolean }
  | { kind: "received"; before: boolean; at: Date }
  | { kind: "spam"; compare: SpamComparison; value: number; negated: boolean };

/** How `spam:` compares the spam score with its number. */
export type SpamComparison = ">" | ">=" | "<" | "<=";

export interface EmailSearch {
  terms: SearchTerm[];
}

/** The operators a `name:` prefix may take; anything else before a colon is refused (quote it to search for it). */
const OPERATORS = ["from", "to", "subject", "has", "is", "before", "after", "spam"] as const;
type Operator = (typeof OPERATORS)[number];
const isOperator = (name: string): name is Operator => (OPERATORS as readonly string[]).includes(name);

/** At most this many terms (a bounded query whatever the input). */
export const MAX_TERMS = 20;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const bad = (token: string, why: string) =>
  errors.validation(`invalid search term "${token}": ${why}`, [{ path: "q", message: `${why}: ${token}` }]);

/** A raw token: its text as typed (for errors), whether it was negated, an operator name, and its value. */
interface Token {
  text: string;
  negated: boolean;
  operator: string | null;
  value: string;
  quoted: boolean;
}

/** Splits `q` into tokens: whitespace separates, double quotes group (a phrase, or an operator's value). */
function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    while (i < q.length && /\s/.test(q[i] as string)) i++;
    if (i >= q.length) break;
    const start = i;
    let negated = false;
    if (q[i] === "-") {
      negated = true;
      i++;
    }
    let operator: string | null = null;
    // an operator: letters then a colon, right after the optional minus
    const op = /^([A-Za-z]+):/.exec(q.slice(i));
    if (op) {
      operator = (op[1] as string).toLowerCase();
      i += op[0].length;
    }
    let value = "";
    let quoted = false;
    if (q[i] === '"') {
      const close = q.indexOf('"', i + 1);
      if (close === -1) throw bad(q.slice(start), "unterminated quote");
      value = q.slice(i + 1, close);
      quoted = true;
      i = close + 1;
      if (i < q.length && !/\s/.test(q[i] as string)) {
        const end = nextSpace(q, i);
        throw bad(q.slice(start, end), "a closing quote must end the term");
      }
    } else {
      const end = nextSpace(q, i);
      value = q.slice(i, end);
      i = end;
    }
    tokens.push({ text: q.slice(start, i), negated, operator, value, quoted });
  }
  return tokens;
}

const nextSpace = (q: string, from: number): number => {
  let i = from;
  while (i < q.length && !/\s/.test(q[i] as string)) i++;
  return i;
};

function parseDate(token: Token): Date {
  const v = token.value;
  const day = DATE_ONLY.exec(v);
  if (day) {
    const at = new Date(`${v}T00:00:00.000Z`);
    // 2026-02-30 parses to March: refuse a day the month does not have
    if (!Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v) return at;
  } else if (DATE_TIME.test(v)) {
    const at = new Date(v);
    if (!Number.isNaN(at.getTime())) return at;
  }
  throw bad(token.text, "expected a date (YYYY-MM-DD) or an ISO 8601 time");
}

const SPAM_VALUE = /^(>=|<=|>|<)(-?\d{1,6}(?:\.\d{1,3})?)$/;

function spamTerm(token: Token): SearchTerm {
  const m = SPAM_VALUE.exec(token.value.trim());
  if (!m) throw bad(token.text, 'expected "spam:>N", "spam:>=N", "spam:<N" or "spam:<=N" with a number N');
  return { kind: "spam", compare: m[1] as SpamComparison, value: Number(m[2]), negated: token.negated };
}

function termOf(token: Token): SearchTerm {
  const { operator, negated, value } = token;
  if (operator === null) {
    if (value === "") throw bad(token.text, token.quoted ? "empty phrase" : "nothing to negate");
    return { kind: "text", value, negated };
  }
  if (!isOperator(operator)) throw bad(token.text, `unknown operator "${operator}:" (quote the term to search for it as text)`);
  if (value === "") throw bad(token.text, `"${operator}:" needs a value`);
  switch (operator) {
    case "from":
    case "to":
    case "subject":
      return { kind: operator, value, negated };
    case "has":
      if (value.toLowerCase() !== "attachment") throw bad(token.text, 'expected "has:attachment"');
      return { kind: "has_attachment", negated };
    case "is": {
      const v = value.toLowerCase();
      if (v !== "read" && v !== "unread") throw bad(token.text, 'expected "is:read" or "is:unread"');
      return { kind: "read", read: (v === "read") !== negated };
    }
    case "before":
    case "after":
      // -before:t is "at or after t"; -after:t is "before t"
      return { kind: "received", before: (operator === "before") !== negated, at: parseDate(token) };
    case "spam":
      return spamTerm(token);
  }
}

/**
 * Parses `q` (already trimmed by the caller or not); null for an empty query. A term it cannot read
 * is a validation error (400) naming that term.
 */
export function parseEmailSearch(q: string | undefined): EmailSearch | null {
  if (q === undefined || q.trim() === "") return null;
  const tokens = tokenize(q);
  if (tokens.length > MAX_TERMS) throw bad(tokens[MAX_TERMS]?.text ?? "", `at most ${MAX_TERMS} terms`);
  return { terms: tokens.map(termOf) };
}
