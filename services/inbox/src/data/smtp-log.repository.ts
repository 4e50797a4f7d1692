import type { SmtpAttempt, SmtpTranscript } from "@burnbox/contracts";
import { HotRepository, type PoolSql, type TeamScope } from "@burnbox/service-kit/data";
import { expandTranscript, type StoredTranscript } from "../domain/smtp/stored-transcript";
import { servedTranscript } from "../domain/smtp/transcript-privacy";

/** How many attempts of one inbox are kept: the newest; the older ones go as new ones come. */
export const ATTEMPTS_KEPT_PER_INBOX = 1000;

/** One refused or deferred attempt, as the intake records it for one inbox. */
export interface NewSmtpAttempt {
  id: string;
  scope: TeamScope;
  inboxId: string;
  at: Date;
  mailFrom: string;
  rcptTo: string;
  messageId: string | null;
  code: number;
  /** The whole reply line. */
  reply: string;
  transcript: StoredTranscript;
}

interface AttemptRow {
  id: string;
  at: Date;
  mail_from: string;
  rcpt_to: string;
  message_id: string | null;
  code: number;
  reply: string;
  transcript: StoredTranscript;
}

const toAttempt = (r: AttemptRow): SmtpAttempt => ({
  id: r.id,
  at: r.at.toISOString(),
  mail_from: r.mail_from,
  rcpt_to: r.rcpt_to,
  message_id: r.message_id,
  code: r.code,
  reply: r.reply,
  transcript: expandTranscript(servedTranscript(r.transcript, r.rcpt_to)),
});

/**
 * What the SMTP intake said (extensions section 8): the attempts an inbox's behaviour refused or
 * deferred (`smtp_attempts`) and the transcript of each stored email (in its row, written with it
 * by `IntakeRepository`; `email_transcripts` for mail stored before migration 0018, until the
 * backfill has copied it into the row). On the pool: the intake writes an attempt outside any
 * transaction, before it sends the reply, so the log holds it once the sender has it.
 */
export class SmtpLogRepository extends HotRepository {
  constructor(private readonly sql: PoolSql) {
    super();
  }

  /**
   * Records one attempt of an inbox that is still its team's (none otherwise), and drops that
   * inbox's attempts beyond the newest `ATTEMPTS_KEPT_PER_INBOX`, in one statement.
   */
  async record(a: NewSmtpAttempt): Promise<void> {
    await this.sql`
      WITH ins AS (
        INSERT INTO smtp_attempts (id, inbox_id, at, mail_from, rcpt_to, message_id, code, reply, transcript)
        SELECT ${a.id}::uuid, i.id, ${a.at.toISOString()}::timestamptz, ${a.mailFrom}::text, ${a.rcptTo}::text,
          ${a.messageId}::text, ${a.code}::int, ${a.reply}::text, ${JSON.stringify(a.transcript)}::jsonb
        FROM inboxes i WHERE i.id = ${a.inboxId}::uuid AND i.org_id = ${a.scope.orgId}::uuid AND i.team_id = ${a.scope.teamId}::uuid
        RETURNING inbox_id
      )
      DELETE FROM smtp_attempts WHERE id IN (
        SELECT s.id FROM smtp_attempts s WHERE s.inbox_id IN (SELECT inbox_id FROM ins)
        ORDER BY s.at DESC, s.seq DESC OFFSET ${ATTEMPTS_KEPT_PER_INBOX - 1}::int
      )`;
  }

  /** The inbox's attempts, newest first. */
  async list(scope: TeamScope, inboxId: string, window: { skip: number; take: number }): Promise<SmtpAttempt[]> {
    const rows = await this.sql<AttemptRow>`
      SELECT s.id::text, s.at, s.mail_from, s.rcpt_to, s.message_id, s.code, s.reply, s.transcript
      FROM smtp_attempts s JOIN inboxes i ON i.id = s.inbox_id
      WHERE s.inbox_id = ${inboxId}::uuid AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
      ORDER BY s.at DESC, s.seq DESC OFFSET ${window.skip}::int LIMIT ${window.take}::int`;
    return rows.map(toAttempt);
  }

  async count(scope: TeamScope, inboxId: string): Promise<number> {
    const rows = await this.sql<{ n: string }>`
      SELECT count(*)::text AS n FROM smtp_attempts s JOIN inboxes i ON i.id = s.inbox_id
      WHERE s.inbox_id = ${inboxId}::uuid AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid`;
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The transcript of an email of the team: in its row (the intake writes it there since migration
   * 0018), else in its `email_transcripts` row (mail stored before, not yet backfilled); null when it has neither
   * (received before transcripts were kept) or is not the team's.
   */
  async transcriptOf(scope: TeamScope, emailId: string): Promise<SmtpTranscript | null> {
    const rows = await this.sql<{ transcript: StoredTranscript; to_address: string }>`
      SELECT coalesce(e.transcript, t.transcript) AS transcript, e.to_address
      FROM emails e JOIN inboxes i ON i.id = e.inbox_id LEFT JOIN email_transcripts t ON t.email_id = e.id
      WHERE e.id = ${emailId}::uuid AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
        AND coalesce(e.transcript, t.transcript) IS NOT NULL`;
    const row = rows[0];
    return row ? expandTranscript(servedTranscript(row.transcript, row.to_address)) : null;
  }

  /**
   * The migrate step of the transcript's move (docs/operations.md): copies the `email_transcripts`
   * rows of the `limit` emails after `after` (in id order: a walk by the primary key, never a scan
   * of what is done) into their email's row where it has none. Idempotent, so replicas may walk
   * together: a row another replica fills first is seen filled and left (PostgreSQL re-checks
   * `transcript IS NULL` after waiting for its lock). Returns where the next batch starts (null:
   * this batch was the last, shorter than `limit`) and how many rows it filled.
   */
  async backfillTranscripts(after: string, limit: number): Promise<{ next: string | null; filled: number }> {
    const rows = await this.sql<{ next: string | null; filled: number }>`
      WITH batch AS (
        SELECT email_id, transcript FROM email_transcripts WHERE email_id > ${after}::uuid ORDER BY email_id LIMIT ${limit}::int
      ),
      filled AS (
        UPDATE emails e SET transcript = b.transcript FROM batch b WHERE e.id = b.email_id AND e.transcript IS NULL RETURNING e.id
      )
      SELECT CASE WHEN (SELECT count(*) FROM batch) = ${limit}::int
          THEN (SELECT email_id::text FROM batch ORDER BY email_id DESC LIMIT 1) END AS next,
        (SELECT count(*)::int FROM filled) AS filled`;
    const row = rows[0];
    return { next: row?.next ?? null, filled: row?.filled ?? 0 };
  }
}
