import { z } from "../zod";
import { DURATION_PATTERN, parseDurationMs, Uuid } from "../shared/common.schemas";
import { EmailSummary } from "./emails.schemas";

/** Extensions section 1: the limits of `GET /inboxes/:id/emails/wait`. */
export const WAIT_LIMITS = {
  countMax: 100,
  countDefault: 1,
  timeoutMaxMs: 120_000,
  timeoutDefaultMs: 30_000,
  /** `subject_re`, `body_re` */
  patternMaxChars: 256,
  /**
   * A pattern's counted repetitions, nested counts multiplied (`(a{10}){10}` is 100; `{n,}` counts
   * n, `{n,m}` m): at most this.
   */
  patternMaxRepeat: 100,
  /**
   * A pattern's compiled program (RE2's program size, its instructions): at most this. Matching
   * costs about text length times the program's live instructions; with these two bounds a
   * 64 KiB body takes tens of ms at worst (docs/performance.md, "Waiting for mail: pattern bounds").
   */
  patternMaxProgram: 300,
  /** What the body matchers (`body`, `body_re`) read of each email: its first 64 Ki characters. */
  bodyMatchMaxChars: 65_536,
  /** Of an HTML part with no text part, the markup whose visible text is matched: its first 1 Mi characters. */
  htmlMatchMaxChars: 1_048_576,
  /** CPU time one wait may spend matching (over its first read and every wake): beyond it, 400. */
  matchBudgetMs: 5_000,
  /** `from`, `to`, `subject`, `body` */
  substringMaxChars: 256,
  headerMaxRepeats: 20,
  headerMaxChars: 1000,
} as const;

/**
 * A wait's timeout in milliseconds: `0`, or a duration such as `500ms`, `10s`, `2m` (units may
 * be combined, `1m30s`), at most 120 s. Throws with the message a 400 carries.
 */
export function parseWaitTimeoutMs(input: string): number {
  const v = input.trim();
  if (v === "0") return 0;
  if (!DURATION_PATTERN.test(v)) throw new Error("timeout must be a duration such as 500ms, 10s or 2m");
  const ms = parseDurationMs(v);
  if (ms > WAIT_LIMITS.timeoutMaxMs) throw new Error("timeout must be at most 120s");
  return ms;
}

const timeout = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return WAIT_LIMITS.timeoutDefaultMs;
    try {
      return parseWaitTimeoutMs(v);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
  })
  .openapi({ type: "string", default: "30s", example: "10s", description: "0 to 120 s: `0`, `500ms`, `10s`, `2m`; `0` answers at once" });

const count = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return WAIT_LIMITS.countDefault;
    const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
    if (!(n >= 1 && n <= WAIT_LIMITS.countMax)) {
      ctx.addIssue({ code: "custom", message: `count must be an integer from 1 to ${WAIT_LIMITS.countMax}` });
      return z.NEVER;
    }
    return n;
  })
  .openapi({ type: "integer", minimum: 1, maximum: WAIT_LIMITS.countMax, default: WAIT_LIMITS.countDefault });

/** `since`: only emails received after this time, or after this email of the inbox (its id). */
export type WaitSince = { kind: "time"; at: Date } | { kind: "email"; id: string };

const since = z
  .string()
  .optional()
  .transform((v, ctx): WaitSince | undefined => {
    if (v === undefined) return undefined;
    if (Uuid.safeParse(v).success) return { kind: "email", id: v.toLowerCase() };
    const at = new Date(v);
    if (z.iso.datetime({ offset: true }).safeParse(v).success && !Number.isNaN(at.getTime())) return { kind: "time", at };
    ctx.addIssue({
      code: "custom",
      message: "since must be an ISO 8601 time such as 2026-11-27T10:00:00Z or the id of an email of this inbox",
    });
    return z.NEVER;
  })
  .openapi({ type: "string", description: "An ISO 8601 time, or the id of an email of this inbox: only emails received after it" });

/** One `header` matcher: the header (name case-insensitive) has exactly this value, trimmed. */
export interface HeaderMatch {
  /** lower case */
  name: string;
  value: string;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function parseHeaderMatch(input: string): HeaderMatch {
  const idx = input.indexOf(":");
  const name = idx > 0 ? input.slice(0, idx).trim() : "";
  if (!HEADER_NAME.test(name)) throw new Error("header must be `Name: value` with a header name such as X-Test-Run");
  return { name: name.toLowerCase(), value: input.slice(idx + 1).trim() };
}

const header = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v, ctx): HeaderMatch[] => {
    const all = v === undefined ? [] : Array.isArray(v) ? v : [v];
    if (all.length > WAIT_LIMITS.headerMaxRepeats) {
      ctx.addIssue({ code: "custom", message: `at most ${WAIT_LIMITS.headerMaxRepeats} header matchers` });
      return z.NEVER;
    }
    const out: HeaderMatch[] = [];
    for (const h of all) {
      if (h.length > WAIT_LIMITS.headerMaxChars) {
        ctx.addIssue({ code: "custom", message: `header must be at most ${WAIT_LIMITS.headerMaxChars} characters` });
        return z.NEVER;
      }
      try {
        out.push(parseHeaderMatch(h));
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }
    return out;
  })
  .openapi({
    type: "array",
    items: { type: "string" },
    description: "`Name: value`; the named header (name case-insensitive) has exactly that value (trimmed). May repeat; all must hold.",
    example: ["X-Test-Run: 42"],
  });

const unread = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true")
  .openapi({ type: "boolean", description: "`true`: only unread emails" });

const substring = (what: string) =>
  z
    .string()
    .min(1)
    .max(WAIT_LIMITS.substringMaxChars)
    .optional()
    .openapi({ description: `A case-insensitive substring of ${what}` });

const pattern = (what: string) =>
  z
    .string()
    .min(1)
    .max(WAIT_LIMITS.patternMaxChars)
    .optional()
    .openapi({
      description:
        `A regular expression in RE2 syntax, matched in linear time against ${what}; an invalid one is a 400, and so is one ` +
        `whose counted repetition exceeds ${WAIT_LIMITS.patternMaxRepeat} (nested counts multiplied) or whose compiled ` +
        `program exceeds ${WAIT_LIMITS.patternMaxProgram} instructions`,
    });

const spamMax = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const n = /^-?\d{1,6}(\.\d{1,3})?$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: "custom", message: "spam_max must be a number such as 5 or 2.5" });
      return z.NEVER;
    }
    return n;
  })
  .openapi({
    type: "number",
    description: "Extensions section 9: only emails whose spam score is at or below this (an email that was not scored never matches)",
    example: 5,
  });

/** The query of `GET /inboxes/:id/emails/wait` (extensions section 1); an unknown field is a 400. */
export const WaitForEmailsQuery = z
  .object({
    from: substring("the From address or name"),
    to: substring("any address or name in the To or Cc headers"),
    subject: substring("the subject"),
    body: substring("the body's first 64 KiB (the text part, else the visible text of the HTML part)"),
    subject_re: pattern("the subject"),
    body_re: pattern("the body's first 64 KiB"),
    header,
    since,
    unread,
    spam_max: spamMax,
    count,
    timeout,
  })
  .strict();
export type WaitForEmailsQuery = z.output<typeof WaitForEmailsQuery>;

/**
 * The wait's answer: the first `count` matching emails, oldest first; `matched` counts every match
 * at answer time. Each is an email summary, as the list gives it (with `extracted` once summaries
 * carry it, extensions section 2).
 */
export const WaitForEmailsResult = z
  .object({
    data: z.array(EmailSummary),
    matched: z.number().int(),
    timed_out: z.boolean(),
  })
  .openapi("WaitForEmailsResult");
export type WaitForEmailsResult = z.infer<typeof WaitForEmailsResult>;
