import { EventType, spamScoreOf, type SmtpBehaviour } from "@burnbox/contracts";
import { HotRepository, startGroupCommit, type GroupCommit, type TeamScope } from "@burnbox/service-kit/data";
import {
  changeCache,
  type BroadcastCache,
  type Change,
  type ChangeBroadcasts,
  type Invalidations,
  type OutboxRelay,
  type outboxRow,
} from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { SpanKind, contextFromHeaders, withSpan } from "@burnbox/service-kit/telemetry";
import { behaviourFrom } from "../domain/smtp/behaviour-rules";
import type { NewEmail } from "./email.repository";
import { InboxChange } from "./inbox.repository";

type Pool = NonNullable<Infra["pool"]>;

/** One email of a received message: the copy for one recipient inbox, in that inbox's team, with its event's outbox row. */
export interface ReceivedEmail {
  scope: TeamScope;
  email: NewEmail;
  /** The `email.received` event, as service-kit's `outboxRow()` made it (trace key included). */
  outbox: ReturnType<typeof outboxRow>;
  /** The SMTP transcript (`StoredTranscript`, as JSON), written in the email's row (`emails.transcript`); absent: none. */
  transcript?: string;
}

/** The inbox that receives mail at an address, with its tenant, its creator, when it expires and its SMTP behaviour. */
export type ReceivingInbox = TeamScope & { id: string; createdBy: string; expiresAt: Date; behaviour: SmtpBehaviour | null };

/** The kept recipient of the inbox a change names (its address, as RCPT TO looks it up). */
const addressOf = (c: Change) => [String((c.data as { full_address?: unknown }).full_address).toLowerCase()];

/**
 * The changes after which a kept recipient may be wrong: an inbox stopped receiving (deleted,
 * expired: its address goes) or moved (a team's inboxes to another org, a moved domain's inboxes
 * deactivated: everything goes). A new inbox is never missing from the cache (no absence is kept),
 * and an extended one is read again once its old end has passed. A changed SMTP behaviour drops its
 * address too: the next transaction reads it again.
 */
export const RECIPIENT_CHANGES: Invalidations = {
  [EventType.inboxDeleted]: addressOf,
  [EventType.inboxExpired]: addressOf,
  [InboxChange.smtpBehaviourChanged]: addressOf,
  [InboxChange.teamMoved]: "all",
  [InboxChange.domainDeactivated]: "all",
};

/** `smtp.store_timeout`'s default: how long a message may take to be stored before the sender gets 451. */
export const DEFAULT_STORE_TIMEOUT_MS = 20_000;

/** A message waiting for its write, and when (on the repository's monotonic clock) its store timeout passes. */
interface PendingMessage {
  emails: ReceivedEmail[];
  deadline: number;
}

/** A message not written because its store timeout passed first (nothing of it was sent to the database). */
export class StoreTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`not stored within the store timeout (${timeoutMs} ms); nothing of it was written`);
    this.name = "StoreTimeoutError";
  }
}

/** At most this many messages are written by one statement... */
export const MAX_MESSAGES_PER_STATEMENT = 64;
/** ...and no more text than this (characters of bodies and headers), unless a single message holds more. */
export const MAX_TEXT_PER_STATEMENT = 4 * 1024 * 1024;
/** At most this many recipients are looked up by one statement. */
export const MAX_LOOKUPS_PER_STATEMENT = 64;

/**
 * Recipient lookups, several in one statement: for each address (n: its position, from 1) the
 * inbox that has exactly that address and is active and unexpired at that lookup's time
 * (`full_address` is unique: at most one).
 */
const LOCATE_SQL = `
SELECT q.n, i.id::text, i.org_id::text AS "orgId", i.team_id::text AS "teamId", i.created_by::text AS "createdBy",
  i.expires_at AS "expiresAt", i.smtp_behaviour AS "behaviour"
FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS q(address, at, n)
JOIN LATERAL (
  SELECT id, org_id, team_id, created_by, expires_at, smtp_behaviour FROM inboxes WHERE full_address = q.address AND is_active AND expires_at > q.at LIMIT 1
) i ON true`;

/**
 * A batch of messages (each one or more emails) as one statement: the emails (each with its SMTP
 * transcript in the email's row, migration 0018), their attachments and their outbox rows, as
 * data-modifying CTEs over unnest()ed arrays. `email_transcripts` is no longer written: the
 * previous release already reads the column first (the contract step of docs/operations.md's
 * expand, migrate, contract; its old rows are copied into the column by the transcript backfill
 * worker, and a later release drops the table). One statement is atomic, so it needs no
 * BEGIN/COMMIT. An email is stored only in its inbox, and only while that inbox is
 * still its team's and receives mail (active, not expired at the message's time): the recipient
 * was looked up at RCPT TO, perhaps from the cache, and this is the check that counts. A message
 * of which one email's inbox is gone is refused whole (none of its emails, attachments or events
 * is written), the others of the batch are stored. The statement returns the ids of the emails it
 * stored and of the inboxes it found gone.
 */
const RECEIVE_SQL = `
WITH v AS (
  SELECT * FROM unnest($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::int[], $15::bool[], $16::text[], $17::timestamptz[],
    $28::jsonb[], $31::jsonb[], $32::jsonb[], $33::float8[])
    AS v(msg, id, inbox_id, org_id, team_id, message_id, from_address, to_address, subject, snippet, body_text, body_html,
      headers, size_bytes, has_attachments, raw_key, received_at, extracted, authentication, spam, spam_score)
),
gone AS (
  SELECT v.msg, v.inbox_id FROM v
  WHERE NOT EXISTS (
    SELECT 1 FROM inboxes i
    WHERE i.id = v.inbox_id AND i.org_id = v.org_id AND i.team_id = v.team_id AND i.is_active AND i.expires_at > v.received_at
  )
),
e AS (
  INSERT INTO emails (id, inbox_id, message_id, from_address, to_address, subject, snippet, body_text, body_html, headers,
    size_bytes, has_attachments, raw_key, received_at, extracted, authentication, spam, spam_score, transcript)
  SELECT v.id, i.id, v.message_id, v.from_address, v.to_address, v.subject, v.snippet, v.body_text, v.body_html, v.headers,
    v.size_bytes, v.has_attachments, v.raw_key, v.received_at, v.extracted, v.authentication, v.spam, v.spam_score, t.transcript
  FROM v JOIN inboxes i
    ON i.id = v.inbox_id AND i.org_id = v.org_id AND i.team_id = v.team_id AND i.is_active AND i.expires_at > v.received_at
  LEFT JOIN unnest($29::uuid[], $30::jsonb[]) AS t(email_id, transcript) ON t.email_id = v.id
  WHERE v.msg NOT IN (SELECT msg FROM gone)
  RETURNING id
),
a AS (
  INSERT INTO attachments (id, email_id, filename, content_type, size_bytes, storage_key)
  SELECT a.id, a.email_id, a.filename, a.content_type, a.size_bytes, a.storage_key
  FROM unnest($18::uuid[], $19::uuid[], $20::text[], $21::text[], $22::int[], $23::text[])
    AS a(id, email_id, filename, content_type, size_bytes, storage_key)
  WHERE a.email_id IN (SELECT id FROM e)
),
o AS (
  INSERT INTO outbox_events (id, subject, payload)
  SELECT o.id, o.subject, o.payload FROM unnest($24::uuid[], $25::uuid[], $26::text[], $27::jsonb[]) AS o(id, email_id, subject, payload)
  WHERE o.email_id IN (SELECT id FROM e)
)
SELECT id::text AS stored, NULL AS gone FROM e
UNION ALL SELECT NULL, inbox_id::text FROM gone`;

/** The statement's parameters for a batch of messages (pure: exported for its unit test). */
export function receiveParams(messages: ReceivedEmail[][]): unknown[] {
  const emails = messages.flatMap((m, msg) => m.map((r) => ({ msg, ...r })));
  const files = emails.flatMap(({ email }) => email.attachments.map((a) => ({ emailId: email.id, ...a })));
  return [
    emails.map((r) => r.msg),
    emails.map((r) => r.email.id),
    emails.map((r) => r.email.inboxId),
    emails.map((r) => r.scope.orgId),
    emails.map((r) => r.scope.teamId),
    emails.map((r) => r.email.messageId),
    emails.map((r) => r.email.fromAddress),
    emails.map((r) => r.email.toAddress),
    emails.map((r) => r.email.subject),
    emails.map((r) => r.email.snippet),
    emails.map((r) => r.email.bodyText),
    emails.map((r) => r.email.bodyHtml),
    emails.map((r) => JSON.stringify(r.email.headers)),
    emails.map((r) => r.email.sizeBytes),
    emails.map((r) => r.email.attachments.length > 0),
    emails.map((r) => r.email.rawKey),
    emails.map((r) => r.email.receivedAt.toISOString()),
    files.map((f) => f.id),
    files.map((f) => f.emailId),
    files.map((f) => f.filename),
    files.map((f) => f.contentType),
    files.map((f) => f.sizeBytes),
    files.map((f) => f.storageKey),
    emails.map((r) => r.outbox.id),
    emails.map((r) => r.email.id),
    emails.map((r) => r.outbox.subject),
    emails.map((r) => JSON.stringify(r.outbox.payload)),
    // $28, after the outbox's: the emails' codes and links
    emails.map((r) => JSON.stringify(r.email.extracted)),
    // $29, $30: the SMTP transcripts of the emails that have one
    ...transcriptParams(emails),
    // $31: the authentication verdicts (null when not checked)
    emails.map((r) => (r.email.authentication ? JSON.stringify(r.email.authentication) : null)),
    // $32, $33: the spam verdict (null when scoring is off) and its score (null when not scored)
    emails.map((r) => (!r.email.spam || r.email.spam.status === "disabled" ? null : JSON.stringify(r.email.spam))),
    emails.map((r) => (r.email.spam ? spamScoreOf(r.email.spam) : null)),
  ];
}

/** The transcripts' parameters: the email ids and their transcripts, for the emails that have one. */
function transcriptParams(emails: ReceivedEmail[]): [string[], string[]] {
  const ids: string[] = [];
  const transcripts: string[] = [];
  for (const r of emails) {
    if (r.transcript === undefined) continue;
    ids.push(r.email.id);
    transcripts.push(r.transcript);
  }
  return [ids, transcripts];
}

/**
 * A statement serving several sessions belongs to none of their traces: it runs in a span of its
 * own, at the root (the drain loop would otherwise carry the context of whichever message started
 * it into every later statement). A no-op when tracing is off.
 */
function batchSpan<T>(name: string, size: number, fn: () => Promise<T>): Promise<T> {
  return withSpan(name, { kind: SpanKind.INTERNAL, parent: contextFromHeaders(undefined), attributes: { "burnbox.batch.size": size } }, fn);
}

/** How much text a message puts in the statement: its bodies and headers, once per email. */
export function textOf(message: ReceivedEmail[]): number {
  return message.reduce(
    (n, { email: e }) => n + (e.bodyText?.length ?? 0) + (e.bodyHtml?.length ?? 0) + e.subject.length + JSON.stringify(e.headers).length,
    0,
  );
}

/** For each message: null when all its emails were stored, else why it was refused (the inbox found gone). */
export function outcomesOf(
  messages: ReceivedEmail[][],
  result: { stored: ReadonlySet<string>; gone: ReadonlySet<string> },
): Array<Error | null> {
  return messages.map((m) => {
    if (m.every((r) => result.stored.has(r.email.id))) return null;
    const missing = m.find((r) => result.gone.has(r.email.inboxId)) ?? m.find((r) => !result.stored.has(r.email.id));
    return new Error(`inbox ${missing?.email.inboxId ?? "?"} no longer receives mail`);
  });
}

/**
 * The SMTP intake's two hot statements, straight on the service's pg pool (no ORM runtime, no
 * interactive transaction): the recipient lookup at RCPT TO and the write of received messages,
 * each grouped across concurrent sessions (see `startGroupCommit`); the events of the messages a
 * write stored go to the relay, which publishes them at once.
 */
export class IntakeRepository extends HotRepository {
  private readonly writes: GroupCommit<PendingMessage>;
  private readonly lookups: GroupCommit<{ fullAddress: string; at: Date }, ReceivingInbox | null>;
  /**
   * The receiving inbox of each address, kept by this process for at most `maxAgeMs` (1 s) and only
   * until the inbox expires; every process drops its copies on the commits `RECIPIENT_CHANGES`
   * names (broadcast by the unit of work), and none is kept while the broadcast's subscription is
   * down. An address with no receiving inbox is never kept: a new inbox receives at once. A kept
   * inbox that was removed or moved meanwhile is harmless: the write checks the inbox again
   * (`RECEIVE_SQL`) and the sender is told to retry (451), then refused at RCPT TO.
   */
  private readonly recipients: BroadcastCache<ReceivingInbox | null> | null;

  /**
   * With `broadcasts` (the service's NATS connection and namespace), recipients are cached as above.
   * `store`: how long a message may take to be stored from `receive()` (`smtp.store_timeout`, the
   * pool's statement timeout too: see `writeBatch`), and the monotonic clock that measures it.
   */
  constructor(
    private readonly pool: Pool,
    relay: Pick<OutboxRelay, "publishCommitted">,
    broadcasts?: ChangeBroadcasts,
    private readonly store: { timeoutMs: number; clock?: () => number } = { timeoutMs: DEFAULT_STORE_TIMEOUT_MS },
  ) {
    super();
    this.recipients = changeCache(broadcasts, RECIPIENT_CHANGES);
    this.writes = startGroupCommit({
      write: (batch) => batchSpan("intake receive", batch.length, () => this.writeBatch(batch)),
      maxBatch: MAX_MESSAGES_PER_STATEMENT,
      weigh: (m) => textOf(m.emails),
      maxWeight: MAX_TEXT_PER_STATEMENT,
      afterCommit: (messages) => relay.publishCommitted(messages.flatMap((m) => m.emails.map((e) => e.outbox))),
    });
    this.lookups = startGroupCommit({
      write: (batch) => batchSpan("intake locate recipients", batch.length, () => this.locateBatch(batch)),
      maxBatch: MAX_LOOKUPS_PER_STATEMENT,
    });
  }

  /**
   * The inbox that receives mail for `fullAddress` at `at` (active, unexpired), with its tenant:
   * from the cache (see `recipients`) while it is unexpired at `at`, else read, the lookups asked
   * while one is in flight answered together by the next statement (`LOCATE_SQL`, the same
   * condition for each address).
   */
  async locateReceiving(fullAddress: string, at: Date): Promise<ReceivingInbox | null> {
    const read = () => this.lookups.submit({ fullAddress, at });
    if (!this.recipients) return read();
    const receives = (inbox: ReceivingInbox | null): inbox is ReceivingInbox => inbox !== null && inbox.expiresAt > at;
    // a read shared with an earlier lookup of the address answered for its time, not this one's
    const inbox = await this.recipients.get(fullAddress, read, receives);
    return receives(inbox) ? inbox : null;
  }

  /**
   * Stores one received message: its emails (each in its scope's inbox, which must still be that
   * team's), their attachments' rows and their outbox rows, atomically; resolves once committed.
   * Throws when an inbox is gone (nothing of the message is stored), the write failed, or it
   * could not be done within the store timeout; a throw means nothing of the message committed.
   */
  async receive(message: ReceivedEmail[]): Promise<void> {
    if (message.length > 0) await this.writes.submit({ emails: message, deadline: this.now() + this.store.timeoutMs });
  }

  private now(): number {
    return this.store.clock ? this.store.clock() : performance.now();
  }

  /** Resolves when no write or lookup is queued or in flight (shutdown). */
  async idle(): Promise<void> {
    await Promise.all([this.writes.idle(), this.lookups.idle()]);
  }

  private async locateBatch(batch: Array<{ fullAddress: string; at: Date }>): Promise<Array<ReceivingInbox | null>> {
    const { rows } = await this.pool.query<ReceivingInbox & { n: string }>({
      name: "intake-locate-receiving",
      text: LOCATE_SQL,
      values: [batch.map((b) => b.fullAddress), batch.map((b) => b.at.toISOString())],
    });
    const found = new Map(rows.map(({ n, behaviour, ...inbox }) => [Number(n) - 1, { ...inbox, behaviour: behaviourFrom(behaviour) }]));
    return batch.map((_, i) => found.get(i) ?? null);
  }

  /**
   * One statement for the batch's messages that still have time. A message whose store timeout
   * passed while it waited (behind a statement the server was still running) is not written: its
   * sender gets 451. The statement itself is bounded by the pool's statement_timeout (the same
   * store timeout), so a write that cannot finish in time is cancelled and rolled back by
   * PostgreSQL, and its error reaches the senders only once nothing of it can commit any more.
   */
  private async writeBatch(batch: PendingMessage[]): Promise<Array<Error | null>> {
    const now = this.now();
    const live = batch.filter((m) => m.deadline > now);
    if (live.length === 0) return batch.map(() => new StoreTimeoutError(this.store.timeoutMs));
    const messages = live.map((m) => m.emails);
    const { rows } = await this.pool.query<{ stored: string | null; gone: string | null }>({
      name: "intake-receive",
      text: RECEIVE_SQL,
      values: receiveParams(messages),
    });
    const stored = new Set<string>();
    const gone = new Set<string>();
    for (const r of rows) {
      if (r.stored) stored.add(r.stored);
      if (r.gone) gone.add(r.gone);
    }
    const written = outcomesOf(messages, { stored, gone });
    const outcomes = new Map(live.map((m, i) => [m, written[i] ?? null]));
    return batch.map((m) => (outcomes.has(m) ? (outcomes.get(m) ?? null) : new StoreTimeoutError(this.store.timeoutMs)));
  }
}
