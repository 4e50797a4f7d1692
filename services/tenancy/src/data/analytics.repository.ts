import {
  claimsOf,
  type Claim,
  groupedStatement,
  HotRepository,
  type OrgScope,
  type PoolSql,
  type TeamScope,
} from "@burnbox/service-kit/data";
import type { Client } from "./prisma";

/** A UTC day as `YYYY-MM-DD` and an hour 0..23: the bucket an event counts in. */
export interface Bucket {
  day: string;
  hour: number;
}

/** One UTC day's figures of a series. */
export interface DayRow {
  day: string;
  emails: number;
  emailBytes: number;
  inboxesCreated: number;
}

export interface Totals {
  emails: number;
  emailBytes: number;
  inboxesCreated: number;
  activeInboxes: number;
}

/** A window of UTC days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

const num = (v: bigint | number | null | undefined): number => Number(v ?? 0);

/** One received email to count, as `countEmailOnce` takes it. */
interface EmailCount {
  claim: Claim;
  scope: TeamScope;
  at: Bucket;
  mail: { bytes: number; domain: string | null; senderDomain: string | null };
}

/** At most this many events are counted by one statement. */
const MAX_COUNTS_PER_STATEMENT = 256;
/**
 * How long a count waits for others to go in its statement: the figures are read minutes apart, and
 * at a steady hundred emails a second one statement (one commit) then counts several instead of
 * one or two (docs/performance.md, issue 39).
 */
const COUNT_LINGER_MS = 50;

/**
 * The analytics aggregates: counters per team (lifetime), per team, UTC day and hour, per
 * receiving domain and day, and per sender domain. The consumers move them through
 * `AnalyticsCounters` (the hot set); here are the reads, which sum these rows (nothing here reads
 * mail), and the tenant removals and moves, which run inside a transaction.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Client) {}

  /** A deleted team's inboxes went with it: none active; its lifetime counts stay in the org's. */
  async teamDeleted(scope: TeamScope): Promise<void> {
    await this.db.$executeRaw`
      UPDATE analytics_team_totals SET active_inboxes = 0
      WHERE org_id = ${scope.orgId}::uuid AND team_id = ${scope.teamId}::uuid`;
  }

  /**
   * A team moved to another org: its own counters and series go with it. The org-level figures
   * (mail per receiving and sender domain) stay with the org that received the mail.
   */
  async teamMoved(from: TeamScope, toOrgId: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE analytics_team_totals SET org_id = ${toOrgId}::uuid WHERE org_id = ${from.orgId}::uuid AND team_id = ${from.teamId}::uuid`;
    await this.db.$executeRaw`
      UPDATE analytics_hourly SET org_id = ${toOrgId}::uuid WHERE org_id = ${from.orgId}::uuid AND team_id = ${from.teamId}::uuid`;
  }

  /** A deleted org's figures go with it. */
  async orgDeleted(scope: OrgScope): Promise<void> {
    const { orgId } = scope;
    await this.db.$executeRaw`DELETE FROM analytics_team_totals WHERE org_id = ${orgId}::uuid`;
    await this.db.$executeRaw`DELETE FROM analytics_hourly WHERE org_id = ${orgId}::uuid`;
    await this.db.$executeRaw`DELETE FROM analytics_domain_daily WHERE org_id = ${orgId}::uuid`;
    await this.db.$executeRaw`DELETE FROM analytics_sender_domains WHERE org_id = ${orgId}::uuid`;
  }

  /** Lifetime totals of the org (every team's, deleted teams' included) or of one team. */
  async totals(scope: OrgScope | TeamScope): Promise<Totals> {
    const teamId = "teamId" in scope ? scope.teamId : null;
    const rows = await this.db.$queryRaw<Array<{ emails: bigint; email_bytes: bigint; inboxes_created: bigint; active_inboxes: bigint }>>`
      SELECT COALESCE(SUM(emails), 0)::bigint AS emails, COALESCE(SUM(email_bytes), 0)::bigint AS email_bytes,
             COALESCE(SUM(inboxes_created), 0)::bigint AS inboxes_created, COALESCE(SUM(active_inboxes), 0)::bigint AS active_inboxes
      FROM analytics_team_totals
      WHERE org_id = ${scope.orgId}::uuid AND (${teamId}::uuid IS NULL OR team_id = ${teamId}::uuid)`;
    return toTotals(rows[0]);
  }

  /** The platform's totals: every team's counters summed (one row per team, never a row per email). */
  async platformTotals(): Promise<Totals> {
    const rows = await this.db.$queryRaw<Array<{ emails: bigint; email_bytes: bigint; inboxes_created: bigint; active_inboxes: bigint }>>`
      SELECT COALESCE(SUM(emails), 0)::bigint AS emails, COALESCE(SUM(email_bytes), 0)::bigint AS email_bytes,
             COALESCE(SUM(inboxes_created), 0)::bigint AS inboxes_created, COALESCE(SUM(active_inboxes), 0)::bigint AS active_inboxes
      FROM analytics_team_totals`;
    return toTotals(rows[0]);
  }

  /** Days of the range that have any figures (the use case fills the others with zeros). */
  async perDay(scope: OrgScope | TeamScope, range: DayRange): Promise<DayRow[]> {
    const teamId = "teamId" in scope ? scope.teamId : null;
    const rows = await this.db.$queryRaw<Array<{ day: string; emails: bigint; email_bytes: bigint; inboxes_created: bigint }>>`
      SELECT day::text AS day, SUM(emails)::bigint AS emails, SUM(email_bytes)::bigint AS email_bytes,
             SUM(inboxes_created)::bigint AS inboxes_created
      FROM analytics_hourly
      WHERE org_id = ${scope.orgId}::uuid AND (${teamId}::uuid IS NULL OR team_id = ${teamId}::uuid)
        AND day BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY day`;
    return rows.map((r) => ({ day: r.day, emails: num(r.emails), emailBytes: num(r.email_bytes), inboxesCreated: num(r.inboxes_created) }));
  }

  /** Emails per UTC hour of day over the range (hours without mail absent). */
  async perHour(scope: OrgScope | TeamScope, range: DayRange): Promise<Array<{ hour: number; emails: number }>> {
    const teamId = "teamId" in scope ? scope.teamId : null;
    const rows = await this.db.$queryRaw<Array<{ hour: number; emails: bigint }>>`
      SELECT hour::int AS hour, SUM(emails)::bigint AS emails
      FROM analytics_hourly
      WHERE org_id = ${scope.orgId}::uuid AND (${teamId}::uuid IS NULL OR team_id = ${teamId}::uuid)
        AND day BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY hour`;
    return rows.map((r) => ({ hour: Number(r.hour), emails: num(r.emails) }));
  }

  /** Emails per receiving domain over the range, most first. */
  async perDomain(scope: OrgScope, range: DayRange): Promise<Array<{ domain: string; emails: number }>> {
    const rows = await this.db.$queryRaw<Array<{ domain: string; emails: bigint }>>`
      SELECT domain, SUM(emails)::bigint AS emails FROM analytics_domain_daily
      WHERE org_id = ${scope.orgId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY domain ORDER BY emails DESC, domain`;
    return rows.map((r) => ({ domain: r.domain, emails: num(r.emails) }));
  }

  /** One receiving domain's emails per day over the range (days without mail absent). */
  async domainPerDay(scope: OrgScope, domain: string, range: DayRange): Promise<Array<{ day: string; emails: number }>> {
    const rows = await this.db.$queryRaw<Array<{ day: string; emails: bigint }>>`
      SELECT day::text AS day, emails FROM analytics_domain_daily
      WHERE org_id = ${scope.orgId}::uuid AND domain = ${domain} AND day BETWEEN ${range.from}::date AND ${range.to}::date`;
    return rows.map((r) => ({ day: r.day, emails: num(r.emails) }));
  }

  /** The org's sender domains with the most mail, lifetime. */
  async topSenderDomains(scope: OrgScope, limit: number): Promise<Array<{ domain: string; emails: number }>> {
    const rows = await this.db.$queryRaw<Array<{ sender_domain: string; emails: bigint }>>`
      SELECT sender_domain, emails FROM analytics_sender_domains
      WHERE org_id = ${scope.orgId}::uuid ORDER BY emails DESC, sender_domain LIMIT ${limit}`;
    return rows.map((r) => ({ domain: r.sender_domain, emails: num(r.emails) }));
  }

  /** The org's domains, teams and members now (tenancy's own rows, counted per org). */
  async orgFootprint(scope: OrgScope): Promise<{ domains: number; teams: number; members: number }> {
    const where = { orgId: scope.orgId };
    const [domains, teams, members] = await Promise.all([
      this.db.domain.count({ where }),
      this.db.team.count({ where }),
      this.db.orgMember.count({ where }),
    ]);
    return { domains, teams, members };
  }

  /** The team's members now. */
  teamMembers(scope: TeamScope): Promise<number> {
    return this.db.teamMember.count({ where: { teamId: scope.teamId, team: { orgId: scope.orgId } } });
  }

  /** Every domain and team of the platform (one count each). */
  async platformFootprint(): Promise<{ domains: number; teams: number }> {
    const [domains, teams] = await Promise.all([this.db.domain.count(), this.db.team.count()]);
    return { domains, teams };
  }
}

/**
 * The analytics counters the consumers move, one upsert per counter that adds to the stored
 * count, so they never read before they write. Pool-only (`data.hot.analytics`): one claim-and-count
 * statement per event, where Prisma's runtime cost more than the statement; the emails counted
 * while a statement is in flight, or within `COUNT_LINGER_MS` of the first, go together.
 */
export class AnalyticsCounters extends HotRepository {
  constructor(private readonly sql: PoolSql) {
    super();
    this.countEmail = groupedStatement({ sql, write: countEmailsOnce, maxBatch: MAX_COUNTS_PER_STATEMENT, lingerMs: COUNT_LINGER_MS });
  }

  private readonly countEmail: (item: EmailCount) => Promise<boolean>;

  /**
   * One received email of `bytes` on the inbox domain `domain`, sent from `senderDomain` (null:
   * none to count), counted unless `consumer` has seen `eventId`. The claim and every count are one
   * statement (one transaction, one round trip), so the hot rows of a busy team are locked for
   * the length of a statement, not of a conversation; false when the event was seen before.
   */
  countEmailOnce(
    claim: Claim,
    scope: TeamScope,
    at: Bucket,
    mail: { bytes: number; domain: string | null; senderDomain: string | null },
  ): Promise<boolean> {
    return this.countEmail({ claim, scope, at, mail });
  }

  /** A new inbox (lifetime, active, its day and hour), counted once per event as `countEmailOnce`. */
  async countInboxCreatedOnce(claim: Claim, scope: TeamScope, at: Bucket): Promise<boolean> {
    const { orgId, teamId } = scope;
    const rows = await this.sql<{ claimed: bigint | string }>`
      WITH claimed AS (
        INSERT INTO processed_events (consumer, event_id) VALUES (${claim.consumer}::text, ${claim.eventId}::uuid)
        ON CONFLICT DO NOTHING RETURNING 1
      ), totals AS (
        INSERT INTO analytics_team_totals (org_id, team_id, inboxes_created, active_inboxes)
        SELECT ${orgId}::uuid, ${teamId}::uuid, 1, 1 FROM claimed
        ON CONFLICT (org_id, team_id) DO UPDATE SET
          inboxes_created = analytics_team_totals.inboxes_created + excluded.inboxes_created,
          active_inboxes = analytics_team_totals.active_inboxes + excluded.active_inboxes
        RETURNING 1
      ), hourly AS (
        INSERT INTO analytics_hourly (org_id, team_id, day, hour, inboxes_created)
        SELECT ${orgId}::uuid, ${teamId}::uuid, ${at.day}::date, ${at.hour}::smallint, 1 FROM claimed
        ON CONFLICT (org_id, team_id, day, hour) DO UPDATE SET
          inboxes_created = analytics_hourly.inboxes_created + excluded.inboxes_created
        RETURNING 1
      )
      SELECT COUNT(*)::bigint AS claimed FROM claimed`;
    return Number(rows[0]?.claimed ?? 0) === 1;
  }

  /** An inbox expired or was deleted: one fewer active (never below zero), once per event; the lifetime counts stay. */
  async countInboxGoneOnce(claim: Claim, scope: TeamScope): Promise<boolean> {
    const rows = await this.sql<{ claimed: bigint | string }>`
      WITH claimed AS (
        INSERT INTO processed_events (consumer, event_id) VALUES (${claim.consumer}::text, ${claim.eventId}::uuid)
        ON CONFLICT DO NOTHING RETURNING 1
      ), gone AS (
        UPDATE analytics_team_totals SET active_inboxes = active_inboxes - 1
        WHERE org_id = ${scope.orgId}::uuid AND team_id = ${scope.teamId}::uuid AND active_inboxes > 0 AND EXISTS (SELECT 1 FROM claimed)
        RETURNING 1
      )
      SELECT COUNT(*)::bigint AS claimed FROM claimed`;
    return Number(rows[0]?.claimed ?? 0) === 1;
  }
}

function toTotals(r: { emails: bigint; email_bytes: bigint; inboxes_created: bigint; active_inboxes: bigint } | undefined): Totals {
  return {
    emails: num(r?.emails),
    emailBytes: num(r?.email_bytes),
    inboxesCreated: num(r?.inboxes_created),
    activeInboxes: num(r?.active_inboxes),
  };
}

/**
 * Several received emails counted in one statement (the same counts as `countEmailOnce`'s single
 * statement, added up per row they move): the events are claimed together, and only the ones
 * claimed now are counted. An event given twice in a batch counts once (the first is answered
 * true). Resolves, per email, whether it was counted now.
 */
async function countEmailsOnce(sql: PoolSql, batch: EmailCount[]): Promise<boolean[]> {
  const { unique, outcomes } = claimsOf(batch);
  const col = <T>(f: (e: EmailCount) => T) => unique.map(f);
  const claimed = await sql<{ consumer: string; event_id: string }>`
    WITH input AS (
      SELECT * FROM unnest(${col((e) => e.claim.consumer)}::text[], ${col((e) => e.claim.eventId)}::uuid[],
        ${col((e) => e.scope.orgId)}::uuid[], ${col((e) => e.scope.teamId)}::uuid[], ${col((e) => e.at.day)}::date[],
        ${col((e) => e.at.hour)}::smallint[], ${col((e) => e.mail.bytes)}::bigint[], ${col((e) => e.mail.domain)}::text[],
        ${col((e) => e.mail.senderDomain)}::text[])
        AS t(consumer, event_id, org_id, team_id, day, hour, bytes, domain, sender_domain)
    ), claimed AS (
      INSERT INTO processed_events (consumer, event_id) SELECT consumer, event_id FROM input
      ON CONFLICT DO NOTHING RETURNING consumer, event_id
    ), fresh AS (
      SELECT i.* FROM input i JOIN claimed c ON c.consumer = i.consumer AND c.event_id = i.event_id
    ), totals AS (
      INSERT INTO analytics_team_totals (org_id, team_id, emails, email_bytes)
      SELECT org_id, team_id, count(*), sum(bytes) FROM fresh GROUP BY org_id, team_id
      ON CONFLICT (org_id, team_id) DO UPDATE SET
        emails = analytics_team_totals.emails + excluded.emails,
        email_bytes = analytics_team_totals.email_bytes + excluded.email_bytes
      RETURNING 1
    ), hourly AS (
      INSERT INTO analytics_hourly (org_id, team_id, day, hour, emails, email_bytes)
      SELECT org_id, team_id, day, hour, count(*), sum(bytes) FROM fresh GROUP BY org_id, team_id, day, hour
      ON CONFLICT (org_id, team_id, day, hour) DO UPDATE SET
        emails = analytics_hourly.emails + excluded.emails,
        email_bytes = analytics_hourly.email_bytes + excluded.email_bytes
      RETURNING 1
    ), domains AS (
      INSERT INTO analytics_domain_daily (org_id, domain, day, emails)
      SELECT org_id, domain, day, count(*) FROM fresh WHERE domain IS NOT NULL GROUP BY org_id, domain, day
      ON CONFLICT (org_id, domain, day) DO UPDATE SET emails = analytics_domain_daily.emails + excluded.emails
      RETURNING 1
    ), senders AS (
      INSERT INTO analytics_sender_domains (org_id, sender_domain, emails)
      SELECT org_id, sender_domain, count(*) FROM fresh WHERE sender_domain IS NOT NULL GROUP BY org_id, sender_domain
      ON CONFLICT (org_id, sender_domain) DO UPDATE SET emails = analytics_sender_domains.emails + excluded.emails
      RETURNING 1
    )
    SELECT consumer, event_id::text FROM claimed`;
  return outcomes(claimed);
}
