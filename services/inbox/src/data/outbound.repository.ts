import type { OutboundKind, OutboundMessage, OutboundStatus } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { Client } from "./prisma";

/** A message as the request queues it (extensions 10): its bytes are final but for the DKIM signature added at send. */
export interface NewOutbound {
  id: string;
  inboxId: string;
  kind: OutboundKind;
  messageId: string;
  mailFrom: string;
  recipients: string[];
  subject: string;
  raw: Buffer;
  at: Date;
}

/** A message a worker claimed: it holds it until `leaseUntil`, fenced by `token`. */
export interface ClaimedOutbound {
  id: string;
  orgId: string;
  teamId: string;
  inboxId: string;
  messageId: string;
  mailFrom: string;
  /** The recipients still to deliver to (an earlier attempt may have reached some). */
  recipients: string[];
  raw: Buffer;
  attempts: number;
  token: string;
}

/** The stored states; `claimed` and `sending` read as `queued` (see domain/outbound/deliver-outbound.use-case.ts). */
type State = "queued" | "claimed" | "sending" | "sent" | "failed";
const statusOf = (s: State): OutboundStatus => (s === "sent" || s === "failed" ? s : "queued");

interface Row {
  id: string;
  message_id: string;
  created_at: Date;
  kind: OutboundKind;
  recipients: string[];
  subject: string;
  state: State;
  attempts: number;
  last_reply: string | null;
}

/** The outbound queue and log (`outbound_messages`). Tenant reads take the team; the worker's methods are the queue's own. */
export class OutboundRepository {
  constructor(private readonly db: Client) {}

  /**
   * Takes the team's hourly budget for one more message (in the caller's transaction, under a lock
   * per team so that concurrent requests count each other): false when `max` are already queued in
   * the last hour.
   */
  async takeHourlySlot(scope: TeamScope, now: Date, max: number): Promise<boolean> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`outbound:${scope.teamId}`}::text, 0))`;
    const since = new Date(now.getTime() - 3600_000);
    const [row] = await this.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM outbound_messages
      WHERE team_id = ${scope.teamId}::uuid AND org_id = ${scope.orgId}::uuid AND created_at > ${since}`;
    return (row?.n ?? 0) < max;
  }

  /** When the oldest message of the last hour leaves the window (seconds from `now`, at least 1). */
  async retryAfterSeconds(scope: TeamScope, now: Date): Promise<number> {
    const since = new Date(now.getTime() - 3600_000);
    const [row] = await this.db.$queryRaw<Array<{ oldest: Date | null }>>`
      SELECT min(created_at) AS oldest FROM outbound_messages
      WHERE team_id = ${scope.teamId}::uuid AND org_id = ${scope.orgId}::uuid AND created_at > ${since}`;
    const oldest = row?.oldest ? row.oldest.getTime() : now.getTime();
    return Math.max(1, Math.ceil((oldest + 3600_000 - now.getTime()) / 1000));
  }

  async queue(scope: TeamScope, m: NewOutbound): Promise<void> {
    await this.db.outboundMessage.create({
      data: {
        id: m.id,
        orgId: scope.orgId,
        teamId: scope.teamId,
        inboxId: m.inboxId,
        kind: m.kind,
        messageId: m.messageId,
        mailFrom: m.mailFrom,
        recipients: m.recipients,
        subject: m.subject,
        raw: new Uint8Array(m.raw),
        nextAttemptAt: m.at,
        createdAt: m.at,
      },
    });
  }

  /** The inbox's outgoing messages, newest first. */
  async list(
    scope: TeamScope,
    inboxId: string,
    window: { skip: number; take: number },
  ): Promise<{ data: OutboundMessage[]; total: number }> {
    const where = { inboxId, orgId: scope.orgId, teamId: scope.teamId };
    const [rows, total] = await Promise.all([
      this.db.outboundMessage.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: window.skip,
        take: window.take,
        select: {
          id: true,
          messageId: true,
          createdAt: true,
          kind: true,
          recipients: true,
          subject: true,
          state: true,
          attempts: true,
          lastReply: true,
        },
      }),
      this.db.outboundMessage.count({ where }),
    ]);
    const data = rows.map((r): OutboundMessage => ({
      id: r.id,
      message_id: r.messageId,
      at: r.createdAt.toISOString(),
      kind: r.kind as OutboundKind,
      to: r.recipients,
      subject: r.subject,
      status: statusOf(r.state as State),
      attempts: r.attempts,
      last_reply: r.lastReply,
    }));
    return { data, total };
  }

  /** One message's log entry by id, in the team (tests and the worker's log lines). */
  async row(scope: TeamScope, id: string): Promise<Row | null> {
    const [row] = await this.db.$queryRaw<Row[]>`
      SELECT id::text, message_id, created_at, kind, recipients, subject, state, attempts, last_reply
      FROM outbound_messages WHERE id = ${id}::uuid AND org_id = ${scope.orgId}::uuid AND team_id = ${scope.teamId}::uuid`;
    return row ?? null;
  }

  /**
   * Claims up to `limit` messages due at `now` for one worker until `leaseUntil`: queued ones, and
   * claimed ones whose worker's lease lapsed before it began the SMTP transaction (nothing was sent
   * for them). Each claim counts as an attempt. Several workers never claim the same row.
   */
  async claim(now: Date, leaseUntil: Date, limit: number, token: string): Promise<ClaimedOutbound[]> {
    const rows = await this.db.$queryRaw<
      Array<{
        id: string;
        org_id: string;
        team_id: string;
        inbox_id: string;
        message_id: string;
        mail_from: string;
        recipients: string[];
        raw: Buffer;
        attempts: number;
      }>
    >`
      UPDATE outbound_messages SET state = 'claimed', lease_until = ${leaseUntil}, claim_token = ${token}::uuid, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM outbound_messages
        WHERE (state = 'queued' AND next_attempt_at <= ${now}) OR (state = 'claimed' AND lease_until < ${now})
        ORDER BY next_attempt_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
      )
      RETURNING id::text, org_id::text, team_id::text, inbox_id::text, message_id, mail_from,
        ARRAY(SELECT r FROM unnest(recipients) AS r WHERE r <> ALL(delivered)) AS recipients, raw, attempts`;
    return rows.map((r) => ({
      id: r.id,
      orgId: r.org_id,
      teamId: r.team_id,
      inboxId: r.inbox_id,
      messageId: r.message_id,
      mailFrom: r.mail_from,
      recipients: r.recipients,
      raw: Buffer.from(r.raw),
      attempts: r.attempts,
      token,
    }));
  }

  /**
   * Commits that the SMTP transaction of this claim begins (just before MAIL FROM): from here on a
   * lapsed lease is never delivered again. False when the claim is no longer this worker's.
   */
  async markSending(id: string, token: string, leaseUntil: Date): Promise<boolean> {
    const n = await this.db.$executeRaw`
      UPDATE outbound_messages SET state = 'sending', lease_until = ${leaseUntil}
      WHERE id = ${id}::uuid AND state = 'claimed' AND claim_token = ${token}::uuid`;
    return n === 1;
  }

  /** Records an attempt's outcome for the claim that made it: `sent` or `failed` for good, or queued again at `retryAt`. */
  async finish(
    id: string,
    token: string,
    outcome: { state: "sent" | "failed"; reply: string; at: Date } | { state: "queued"; reply: string; retryAt: Date; delivered: string[] },
  ): Promise<boolean> {
    const n =
      outcome.state === "queued"
        ? await this.db.$executeRaw`
            UPDATE outbound_messages SET state = 'queued', last_reply = ${outcome.reply}, next_attempt_at = ${outcome.retryAt},
              delivered = delivered || ${outcome.delivered}::text[], lease_until = NULL, claim_token = NULL
            WHERE id = ${id}::uuid AND state IN ('claimed', 'sending') AND claim_token = ${token}::uuid`
        : await this.db.$executeRaw`
            UPDATE outbound_messages SET state = ${outcome.state}, last_reply = ${outcome.reply}, finished_at = ${outcome.at},
              lease_until = NULL, claim_token = NULL
            WHERE id = ${id}::uuid AND state IN ('claimed', 'sending') AND claim_token = ${token}::uuid`;
    return n === 1;
  }

  /**
   * The messages whose worker stopped inside the SMTP transaction (`sending`, lease lapsed): the
   * relay may or may not have taken them. Each is returned with whether every recipient is one of
   * BurnBox's own inboxes that already holds a mail with its Message-ID (then it did arrive).
   */
  async lapsedSending(now: Date, limit: number): Promise<Array<{ id: string; token: string; arrived: boolean }>> {
    return this.db.$queryRaw<Array<{ id: string; token: string; arrived: boolean }>>`
      SELECT o.id::text, o.claim_token::text AS token,
        NOT EXISTS (
          SELECT 1 FROM unnest(o.recipients) AS r(address)
          WHERE r.address <> ALL(o.delivered) AND NOT EXISTS (
            SELECT 1 FROM inboxes i JOIN emails e ON e.inbox_id = i.id
            WHERE i.full_address = r.address AND e.message_id = o.message_id
          )
        ) AS arrived
      FROM outbound_messages o
      WHERE o.state = 'sending' AND o.lease_until < ${now}
      ORDER BY o.lease_until LIMIT ${limit}::int`;
  }

  /** Full addresses among `addresses` that are active inboxes of this BurnBox (any org's). */
  async localInboxes(addresses: readonly string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.db.inbox.findMany({
      where: { fullAddress: { in: [...addresses] }, isActive: true },
      select: { fullAddress: true },
    });
    return new Set(rows.map((r) => r.fullAddress.toLowerCase()));
  }
}
