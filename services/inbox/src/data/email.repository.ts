import {
  Authentication,
  authenticationSummaryOf,
  Extracted,
  nothingExtracted,
  SpamResult,
  spamRequiredScoreOf,
  spamScoreOf,
  WAIT_LIMITS,
  type Email,
  type EmailSummary,
} from "@burnbox/contracts";
import { HotRepository, type PoolSql, type TeamScope } from "@burnbox/service-kit/data";
import { inboxAccessFields, toInboxAccess, type InboxAccess } from "./inbox.repository";
import type { EmailSearch, SearchTerm } from "../domain/emails/email-search";
import { Prisma, type Client } from "./prisma";

/** An email's row as its reads select it: every column but the SMTP transcript (`SmtpLogRepository.transcriptOf` reads it alone). */
export type EmailRow = Omit<Prisma.EmailGetPayload<object>, "transcript">;
type EmailWithAttachments = Omit<Prisma.EmailGetPayload<{ include: { attachments: true } }>, "transcript">;

export interface NewAttachment {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
}

/** A received email's row, written by the intake (`IntakeRepository.receive`). */
export interface NewEmail {
  id: string;
  inboxId: string;
  messageId: string | null;
  fromAddress: string;
  toAddress: string;
  subject: string;
  snippet: string;
  bodyText: string | null;
  bodyHtml: string | null;
  headers: Record<string, string>;
  /** The codes and links found at intake (extensions section 2). */
  extracted: Extracted;
  /** The SPF, DKIM, DMARC and ARC verdicts of intake (extensions section 3); null when not checked. */
  authentication: Authentication | null;
  /** rspamd's verdict at intake (extensions section 9); absent: `disabled`. */
  spam?: SpamResult;
  sizeBytes: number;
  rawKey: string;
  receivedAt: Date;
  attachments: NewAttachment[];
}

/** A stored file of an email: an attachment or the raw message. */
export interface StoredFile {
  key: string;
  filename: string;
  contentType: string;
}

/** The name the raw message of an email is stored under, beside its attachments. */
export const RAW_MESSAGE_FILE = "message.eml";

/** The emails of one inbox, unsearched (a search: `EmailRepository.search`). */
export interface EmailListing {
  inboxId: string;
}

/** The stored `extracted` column as the API shows it: empty lists for anything else (never null). */
export function extractedFrom(json: unknown): Extracted {
  const parsed = Extracted.safeParse(json);
  return parsed.success ? parsed.data : nothingExtracted();
}

/** The stored `authentication` column as the API shows it: null for mail received before it was checked (or anything unreadable). */
export function authenticationFrom(json: unknown): Authentication | null {
  if (json === null || json === undefined) return null;
  const parsed = Authentication.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The stored `spam` column as the API shows it: mail received before scoring existed, or with it off, is `disabled`. */
export function spamFrom(json: unknown): SpamResult {
  if (json === null || json === undefined) return { status: "disabled" };
  const parsed = SpamResult.safeParse(json);
  return parsed.success ? parsed.data : { status: "unavailable" };
}

/** What a summary line is made of: a stored row, or the email the intake is storing (`receivedSummary`). */
type SummaryFields = Pick<
  EmailRow,
  "id" | "inboxId" | "fromAddress" | "subject" | "snippet" | "hasAttachments" | "isRead" | "sizeBytes" | "receivedAt" | "spamScore"
> & { spamRequiredScore: number | null };

/** The required score in a stored `spam` column (rspamd's verdict), null when it holds none (not parsed whole: a list line). */
const requiredScoreIn = (json: unknown): number | null => {
  const spam = json as { status?: unknown; required_score?: unknown } | null;
  return spam?.status === "scored" && typeof spam.required_score === "number" ? spam.required_score : null;
};

/**
 * The one summary mapping, without `extracted` (which `email.received` carries once, beside it) and
 * the authentication summary (worked out from the stored verdicts, or the intake's).
 */
function summaryLine(e: SummaryFields): Omit<EmailSummary, "extracted" | "authentication_summary"> {
  return {
    id: e.id,
    inbox_id: e.inboxId,
    from_address: e.fromAddress,
    subject: e.subject,
    snippet: e.snippet,
    has_attachments: e.hasAttachments,
    is_read: e.isRead,
    size_bytes: e.sizeBytes,
    received_at: e.receivedAt.toISOString(),
    spam_score: e.spamScore ?? null,
    spam_required_score: e.spamScore === null ? null : e.spamRequiredScore,
  };
}

/** An email's line in every email list (the inbox's, the demo's, the wait's). */
export function toEmailSummary(e: EmailRow): EmailSummary {
  return {
    ...summaryLine({ ...e, spamRequiredScore: requiredScoreIn(e.spam) }),
    extracted: extractedFrom(e.extracted),
    authentication_summary: authenticationSummaryOf(authenticationFrom(e.authentication)),
  };
}

/** The summary `email.received` carries: the new email's list line, unread. */
export function receivedSummary(
  e: Pick<NewEmail, "id" | "inboxId" | "fromAddress" | "subject" | "snippet" | "sizeBytes" | "receivedAt" | "attachments">,
  authentication: Authentication | null,
  spam: SpamResult = { status: "disabled" },
): Omit<EmailSummary, "extracted"> {
  return {
    ...summaryLine({
      ...e,
      hasAttachments: e.attachments.length > 0,
      isRead: false,
      spamScore: spamScoreOf(spam),
      spamRequiredScore: spamRequiredScoreOf(spam),
    }),
    authentication_summary: authenticationSummaryOf(authentication),
  };
}

/** An email's stored headers (name to value; a JSON object as the intake wrote it). */
export const storedHeaders = (h: EmailRow["headers"]): Record<string, string> =>
  h && typeof h === "object" && !Array.isArray(h) ? (h as Record<string, string>) : {};

export function toEmail(e: EmailWithAttachments): Email {
  const headers = storedHeaders(e.headers);
  return {
    id: e.id,
    inbox_id: e.inboxId,
    message_id: e.messageId,
    from_address: e.fromAddress,
    to_address: e.toAddress,
    subject: e.subject,
    body_text: e.bodyText,
    body_html: e.bodyHtml,
    headers,
    size_bytes: e.sizeBytes,
    is_read: e.isRead,
    received_at: e.receivedAt.toISOString(),
    attachments: e.attachments.map((a) => ({ id: a.id, filename: a.filename, content_type: a.contentType, size_bytes: a.sizeBytes })),
    extracted: extractedFrom(e.extracted),
    authentication: authenticationFrom(e.authentication),
    spam: spamFrom(e.spam),
  };
}

/**
 * The emails a wait's first read takes: of one inbox, those after a point (`receivedAt`, then id
 * when given), only unread ones when asked.
 */
export interface WaitSelection {
  inboxId: string;
  after: { receivedAt: Date; id: string | null } | null;
  unread: boolean;
}

/**
 * What of an email a wait's matchers read beyond its summary: the bodies (for `body`, `body_re`;
 * cut to what is matched: the text's first `WAIT_LIMITS.bodyMatchMaxChars` characters, the HTML,
 * read only without a text, to its first `htmlMatchMaxChars`) and the headers (for `from`, `to`,
 * `header`). Without them the rows carry null bodies and empty headers.
 */
export interface WaitColumns {
  bodies: boolean;
  headers: boolean;
}

/** One page of a wait's first read: after `from` (the previous page's `next`; null: the first page), at most `limit` rows. */
export interface WaitPage {
  from: string | null;
  limit: number;
}

/** Emails carry no tenant columns: their inbox's tenant scopes them. */
const inTeam = (scope: TeamScope) => ({ orgId: scope.orgId, teamId: scope.teamId });

/** `%value%` for ILIKE, with `%`, `_` and the escape character (backslash) escaped so they match themselves. */
const containing = (value: string) => `%${value.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * The words of an email's text body, as migration 0013's GIN index holds them beside the inbox id:
 * `email_body_words`, the `simple` configuration (lower-cased words, no stemming, no stop words) of
 * its first 100,000 characters (a tsvector has a 1 MB limit; a body beyond that is searched in its
 * beginning), in a function that tells the planner what computing them costs. The statement must
 * spell the index's expression exactly for PostgreSQL to use it.
 */
export const BODY_WORDS = Prisma.sql`email_body_words(e.body_text)`;

/**
 * A free word or phrase: a substring of the subject or the sender (trigram indexes with the inbox
 * id, 0012), or the same words in that order in the body (`BODY_WORDS`). A word or phrase with no letters or digits
 * (`phraseto_tsquery` finds no word in it) matches no body.
 */
const textMatch = (value: string) =>
  Prisma.sql`(e.subject ILIKE ${containing(value)} OR e.from_address ILIKE ${containing(value)}
    OR ${BODY_WORDS} @@ phraseto_tsquery('simple'::regconfig, ${value}))`;

/** The column an operator matches (all NOT NULL). */
const FIELD = { from: Prisma.raw("e.from_address"), to: Prisma.raw("e.to_address"), subject: Prisma.raw("e.subject") } as const;

/** The SQL of each `spam:` comparison (a fixed list: never the caller's text). */
const SPAM_SQL = { ">": ">", ">=": ">=", "<": "<", "<=": "<=" } as const;

/** One search term as a condition on `e` (an email row); a null body holds no word, negated or not. */
function termSql(t: SearchTerm): Prisma.Sql {
  switch (t.kind) {
    case "text":
      // a null body's match is NULL, and NOT NULL would drop the email: negated, it counts as "does not hold it"
      return t.negated ? Prisma.sql`NOT coalesce(${textMatch(t.value)}, false)` : textMatch(t.value);
    case "from":
    case "to":
    case "subject": {
      const match = Prisma.sql`${FIELD[t.kind]} ILIKE ${containing(t.value)}`;
      return t.negated ? Prisma.sql`NOT (${match})` : match;
    }
    case "has_attachment":
      return Prisma.sql`e.has_attachments = ${!t.negated}`;
    case "read":
      return Prisma.sql`e.is_read = ${t.read}`;
    case "received":
      return t.before ? Prisma.sql`e.received_at < ${t.at}::timestamptz` : Prisma.sql`e.received_at >= ${t.at}::timestamptz`;
    case "spam": {
      // a null score (not scored) holds no comparison; negated, it counts as "does not hold it"
      const match = Prisma.sql`e.spam_score ${Prisma.raw(SPAM_SQL[t.compare])} ${t.value}::float8`;
      return t.negated ? Prisma.sql`NOT coalesce(${match}, false)` : match;
    }
  }
}

/** The emails of a listing with a search: of the inbox, in `scope`, every term holding. */
const searchedSql = (scope: TeamScope, inboxId: string, search: EmailSearch): Prisma.Sql =>
  Prisma.sql`emails e JOIN inboxes i ON i.id = e.inbox_id AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
    WHERE e.inbox_id = ${inboxId}::uuid AND ${Prisma.join(search.terms.map(termSql), " AND ")}`;

/**
 * A searched page and its total in one statement. The matches are found once (`m`: id and time
 * only, in whatever plan PostgreSQL picks for all of them, as a count would), counted, and ordered
 * newest first for the window (a top-N sort); only the page's rows are then read by their key.
 * Two statements (a page that stops at its window, a count) visited the matches twice, and the
 * page's plan walked the inbox newest first recomputing each body's words (docs/performance.md,
 * "Searching a big inbox"). One row of nulls beside the total when the window holds none.
 */
export const searchPageSql = (scope: TeamScope, inboxId: string, search: EmailSearch, window: { skip: number; take: number }): Prisma.Sql =>
  Prisma.sql`WITH m AS MATERIALIZED (SELECT e.id, e.received_at FROM ${searchedSql(scope, inboxId, search)}),
    p AS (SELECT m.id FROM m ORDER BY m.received_at DESC, m.id DESC LIMIT ${window.take} OFFSET ${window.skip})
    SELECT t.total, e.id::text AS "id", e.inbox_id::text AS "inboxId", e.from_address AS "fromAddress", e.subject, e.snippet,
      e.has_attachments AS "hasAttachments", e.is_read AS "isRead", e.size_bytes AS "sizeBytes", e.received_at AS "receivedAt",
      e.extracted, e.authentication, e.spam_score AS "spamScore", (e.spam->>'required_score')::float8 AS "spamRequiredScore"
    FROM (SELECT count(*)::int AS total FROM m) t
    LEFT JOIN (p JOIN emails e ON e.id = p.id) ON true
    ORDER BY e.received_at DESC, e.id DESC`;

/**
 * What a search statement runs with, in its own transaction: enough memory for the bitmap of a word
 * found in most of a 100,000-email inbox to stay exact (one bit per email), and for the matches' ids
 * and times to stay out of a temporary file. At the server's default of 4 MB the bitmap of `invoice`
 * in such an inbox turned lossy (one bit per table page), and PostgreSQL then rechecked every email
 * of a lossy page by computing its body's words again: 2.5 to 11 s at a million emails, 0.5 s with
 * this (docs/performance.md, "Common words in a big inbox"). Only as much as a statement uses is taken.
 */
export const SEARCH_SETTINGS = Prisma.sql`SET LOCAL work_mem = '32MB'`;

/** A searched list's line as the statement selects it (summary columns only: never the bodies). */
type SummaryRow = SummaryFields & Pick<EmailRow, "extracted" | "authentication">;

const searchedLine = (r: SummaryRow): EmailSummary => ({
  ...summaryLine(r),
  extracted: extractedFrom(r.extracted),
  authentication_summary: authenticationSummaryOf(authenticationFrom(r.authentication)),
});

export class EmailRepository {
  constructor(private readonly db: Client) {}

  /** An email found by its id alone, with what deciding access to its inbox needs. */
  async locate(emailId: string): Promise<{ id: string; inbox: InboxAccess } | null> {
    const row = await this.db.email.findUnique({ where: { id: emailId }, select: { id: true, inbox: { select: inboxAccessFields } } });
    return row && { id: row.id, inbox: toInboxAccess(row.inbox) };
  }

  async get(scope: TeamScope, emailId: string): Promise<Email | null> {
    const row = await this.db.email.findFirst({
      where: { id: emailId, inbox: inTeam(scope) },
      include: { attachments: true },
      omit: { transcript: true },
    });
    return row && toEmail(row);
  }

  /** Newest first, unsearched (a search is `search`, with its total). */
  async list(scope: TeamScope, listing: EmailListing, window: { skip: number; take: number }): Promise<EmailSummary[]> {
    const rows = await this.db.email.findMany({
      where: { inboxId: listing.inboxId, inbox: inTeam(scope) },
      omit: { transcript: true },
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toEmailSummary);
  }

  /**
   * How many emails the inbox holds: its kept count (migration 0012's `inbox_email_counts`, exact
   * in every transaction: a few rows whatever the inbox holds).
   */
  async count(scope: TeamScope, listing: EmailListing): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ n: number }>>`
      SELECT coalesce(sum(c.emails), 0)::int AS n FROM inbox_email_counts c
      JOIN inboxes i ON i.id = c.inbox_id AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
      WHERE c.inbox_id = ${listing.inboxId}::uuid`;
    return rows[0]?.n ?? 0;
  }

  /**
   * A searched page of the inbox, newest first, and the number of matches, from one statement
   * (`searchPageSql`, after `SEARCH_SETTINGS` in its transaction): the page and its total come from
   * the same snapshot, so they always agree.
   */
  async search(
    scope: TeamScope,
    inboxId: string,
    search: EmailSearch,
    window: { skip: number; take: number },
  ): Promise<{ rows: EmailSummary[]; total: number }> {
    type Row = { total: number } & { [K in keyof SummaryRow]: SummaryRow[K] | null };
    const statement = searchPageSql(scope, inboxId, search, window);
    const rows =
      "$transaction" in this.db
        ? (await this.db.$transaction([this.db.$executeRaw(SEARCH_SETTINGS), this.db.$queryRaw<Row[]>(statement)]))[1]
        : // inside a change's transaction: the setting holds until it ends
          await this.db.$executeRaw(SEARCH_SETTINGS).then(() => this.db.$queryRaw<Row[]>(statement));
    return {
      total: rows[0]?.total ?? 0,
      rows: rows.flatMap((r) => (r.id === null ? [] : [searchedLine(r as SummaryRow)])),
    };
  }

  /** Where an email of this inbox stands in its order (a wait's `since`); null when it is not one of the inbox's. */
  async cursor(scope: TeamScope, inboxId: string, emailId: string): Promise<{ receivedAt: Date; id: string } | null> {
    return this.db.email.findFirst({ where: { id: emailId, inboxId, inbox: inTeam(scope) }, select: { receivedAt: true, id: true } });
  }

  /** Sets the read flag; null when the email is not in `scope`. */
  async setRead(scope: TeamScope, emailId: string, isRead: boolean): Promise<Email | null> {
    const { count } = await this.db.email.updateMany({ where: { id: emailId, inbox: inTeam(scope) }, data: { isRead } });
    return count === 0 ? null : this.get(scope, emailId);
  }

  /** Marks every unread email of an inbox read; returns how many. */
  async markAllRead(scope: TeamScope, inboxId: string): Promise<number> {
    const { count } = await this.db.email.updateMany({ where: { inboxId, inbox: inTeam(scope), isRead: false }, data: { isRead: true } });
    return count;
  }

  /** Deletes an email and its attachment rows; returns its inbox id, null when absent. */
  async remove(scope: TeamScope, emailId: string): Promise<{ inboxId: string; subject: string } | null> {
    const row = await this.db.email.findFirst({ where: { id: emailId, inbox: inTeam(scope) }, select: { inboxId: true, subject: true } });
    if (!row) return null;
    const { count } = await this.db.email.deleteMany({ where: { id: emailId, inbox: inTeam(scope) } });
    return count === 0 ? null : row;
  }

  /** An attachment of that email (never another email's); null otherwise. */
  async attachment(scope: TeamScope, emailId: string, attachmentId: string): Promise<StoredFile | null> {
    const row = await this.db.attachment.findFirst({
      where: { id: attachmentId, emailId, email: { inbox: inTeam(scope) } },
      select: { storageKey: true, filename: true, contentType: true },
    });
    return row && { key: row.storageKey, filename: row.filename, contentType: row.contentType };
  }

  /** The raw message of an email; null when absent or not stored. */
  async rawMessage(scope: TeamScope, emailId: string): Promise<StoredFile | null> {
    const row = await this.db.email.findFirst({ where: { id: emailId, inbox: inTeam(scope) }, select: { rawKey: true } });
    return row?.rawKey ? { key: row.rawKey, filename: `${emailId}.eml`, contentType: "message/rfc822" } : null;
  }

  /**
   * The email a storage key belongs to (found by the key alone, before anyone is authorized), with
   * the file it names: the email's raw message or one of its attachments.
   */
  async locateFile(key: string): Promise<{ emailId: string; inbox: InboxAccess; file: StoredFile } | null> {
    const att = await this.db.attachment.findFirst({
      where: { storageKey: key },
      select: { filename: true, contentType: true, email: { select: { id: true, inbox: { select: inboxAccessFields } } } },
    });
    if (att) {
      return {
        emailId: att.email.id,
        inbox: toInboxAccess(att.email.inbox),
        file: { key, filename: att.filename, contentType: att.contentType },
      };
    }
    const email = await this.db.email.findFirst({ where: { rawKey: key }, select: { id: true, inbox: { select: inboxAccessFields } } });
    if (!email) return null;
    return {
      emailId: email.id,
      inbox: toInboxAccess(email.inbox),
      file: { key, filename: `${email.id}.eml`, contentType: "message/rfc822" },
    };
  }
}

/** An email row as the wait statements select it, with its inbox's end on the first read's rows. */
type WaitRow = { [K in keyof EmailRow]: EmailRow[K] | null } & { inboxExpiresAt?: Date; cursor?: string };

/** An email row (`EmailRow`, as Prisma would read it) from the wait's statements' `e` columns; those not read are null or empty. */
const toEmailRow = (r: WaitRow): EmailRow => ({
  id: r.id as string,
  inboxId: r.inboxId as string,
  messageId: r.messageId,
  fromAddress: r.fromAddress as string,
  toAddress: r.toAddress as string,
  subject: r.subject as string,
  snippet: r.snippet as string,
  bodyText: r.bodyText,
  bodyHtml: r.bodyHtml,
  headers: r.headers ?? {},
  extracted: r.extracted ?? {},
  authentication: r.authentication ?? null,
  spam: r.spam ?? null,
  spamScore: r.spamScore ?? null,
  uid: r.uid ?? null,
  sizeBytes: r.sizeBytes as number,
  hasAttachments: r.hasAttachments as boolean,
  isRead: r.isRead as boolean,
  rawKey: r.rawKey,
  receivedAt: r.receivedAt as Date,
});

/**
 * The reads of a wait (`GET /inboxes/:id/emails/wait`), on the pool alone (`hot.emails`): each is
 * one prepared statement. Through Prisma these (with `locate` and the inbox's end, two more) were
 * most of the inbox process's CPU per wait, its query compiler above all, and the process queued
 * waits and wakes behind them at 100 msg/s (docs/performance.md, "Waiting for mail").
 */
export class EmailWaitRepository extends HotRepository {
  constructor(private readonly sql: PoolSql) {
    super();
  }

  /**
   * A page of a wait's first read: the inbox's emails after the wait's point, oldest first, with
   * the summary's columns and those `columns` asks for (bodies cut to what is matched, see
   * `WaitColumns`), and when the inbox expires, in one statement. `next` is where the following
   * page starts (null: this was the last). Null when the inbox is gone or not in `scope`.
   */
  async firstRead(
    scope: TeamScope,
    w: WaitSelection & { columns: WaitColumns; page: WaitPage },
  ): Promise<{ rows: EmailRow[]; expiresAt: Date; next: string | null } | null> {
    // after (t, id): received after t, or at t with a greater id; after a time: received after it
    // (`e.id > NULL` is never true); no point: every email (after -infinity)
    const since = w.after?.receivedAt ?? "-infinity";
    const afterId = w.after?.id ?? null;
    // a page goes on after the previous one's last row: "received_at|id", the time as Postgres writes it (microseconds kept)
    const bar = w.page.from?.lastIndexOf("|") ?? -1;
    const pageAt = w.page.from && bar > 0 ? w.page.from.slice(0, bar) : null;
    const pageId = w.page.from && bar > 0 ? w.page.from.slice(bar + 1) : null;
    const rows = await this.sql<WaitRow & { inboxExpiresAt: Date }>`
      SELECT i.expires_at AS "inboxExpiresAt", e.*
      FROM inboxes i
      LEFT JOIN LATERAL (
        SELECT e.id::text, e.inbox_id::text AS "inboxId", e.message_id AS "messageId", e.from_address AS "fromAddress",
          e.to_address AS "toAddress", e.subject, e.snippet,
          CASE WHEN ${w.columns.bodies}::boolean THEN left(e.body_text, ${WAIT_LIMITS.bodyMatchMaxChars}::int) END AS "bodyText",
          CASE WHEN ${w.columns.bodies}::boolean AND coalesce(e.body_text, '') !~ '[^[:space:]]'
            THEN left(e.body_html, ${WAIT_LIMITS.htmlMatchMaxChars}::int) END AS "bodyHtml",
          CASE WHEN ${w.columns.headers}::boolean THEN e.headers END AS headers,
          e.extracted, e.authentication, e.spam, e.spam_score AS "spamScore", e.size_bytes AS "sizeBytes", e.has_attachments AS "hasAttachments", e.is_read AS "isRead",
          e.raw_key AS "rawKey", e.received_at AS "receivedAt", e.received_at::text || '|' || e.id::text AS cursor
        FROM emails e
        WHERE e.inbox_id = i.id
          AND e.received_at >= ${since}::timestamptz
          AND (e.received_at > ${since}::timestamptz OR e.id > ${afterId}::uuid)
          AND (NOT ${w.unread}::boolean OR NOT e.is_read)
          AND (${pageAt}::timestamptz IS NULL OR (e.received_at, e.id) > (${pageAt}::timestamptz, ${pageId}::uuid))
        ORDER BY e.received_at, e.id
        LIMIT ${w.page.limit}::int
      ) e ON true
      WHERE i.id = ${w.inboxId}::uuid AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
      ORDER BY e."receivedAt", e.id`;
    const first = rows[0];
    if (!first) return null;
    // an inbox without such mail is one row of nulls beside its end
    if (first.id === null) return { rows: [], expiresAt: first.inboxExpiresAt, next: null };
    const next = rows.length < w.page.limit ? null : (rows[rows.length - 1]!.cursor ?? null);
    return { rows: rows.map(toEmailRow), expiresAt: first.inboxExpiresAt, next };
  }

  /**
   * The emails a wake names (new mail of the inbox), oldest first, with the columns of `firstRead`;
   * none when the inbox is not in `scope`.
   */
  async named(scope: TeamScope, inboxId: string, ids: readonly string[], columns: WaitColumns): Promise<EmailRow[]> {
    const rows = await this.sql<WaitRow>`
      SELECT e.id::text, e.inbox_id::text AS "inboxId", e.message_id AS "messageId", e.from_address AS "fromAddress",
        e.to_address AS "toAddress", e.subject, e.snippet,
        CASE WHEN ${columns.bodies}::boolean THEN left(e.body_text, ${WAIT_LIMITS.bodyMatchMaxChars}::int) END AS "bodyText",
        CASE WHEN ${columns.bodies}::boolean AND coalesce(e.body_text, '') !~ '[^[:space:]]'
          THEN left(e.body_html, ${WAIT_LIMITS.htmlMatchMaxChars}::int) END AS "bodyHtml",
        CASE WHEN ${columns.headers}::boolean THEN e.headers END AS headers,
        e.extracted, e.authentication, e.spam, e.spam_score AS "spamScore", e.size_bytes AS "sizeBytes", e.has_attachments AS "hasAttachments", e.is_read AS "isRead",
        e.raw_key AS "rawKey", e.received_at AS "receivedAt"
      FROM emails e JOIN inboxes i ON i.id = e.inbox_id AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
      WHERE e.inbox_id = ${inboxId}::uuid AND e.id = ANY(${[...ids]}::uuid[])
      ORDER BY e.received_at, e.id`;
    return rows.map(toEmailRow);
  }
}
