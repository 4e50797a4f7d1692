import type { OrgScope, TeamScope } from "@burnbox/service-kit";
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

/**
 * The analytics aggregates: counters per team (lifetime), per team, UTC day and hour, per
 * receiving domain and day, and per sender domain, each moved by an upsert that adds to the
 * stored count, so the consumers never read before they write. Reads sum these rows; nothing here
 * reads mail.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Client) {}

  /** One received email of `bytes` on the inbox domain `domain`, sent from `senderDomain` (null: none to count). */
  async countEmail(
    scope: TeamScope,
    at: Bucket,
    mail: { bytes: number; domain: string | null; senderDomain: string | null },
  ): Promise<void> {
    const { orgId, teamId } = scope;
    await this.db.$executeRaw`
      INSERT INTO analytics_team_totals (org_id, team_id, emails, email_bytes)
      VALUES (${orgId}::uuid, ${teamId}::uuid, 1, ${mail.bytes})
      ON CONFLICT (org_id, team_id) DO UPDATE SET
        emails = analytics_team_totals.emails + excluded.emails,
        email_bytes = analytics_team_totals.email_bytes + excluded.email_bytes`;
    await this.db.$executeRaw`
      INSERT INTO analytics_hourly (org_id, team_id, day, hour, emails, email_bytes)
      VALUES (${orgId}::uuid, ${teamId}::uuid, ${at.day}::date, ${at.hour}, 1, ${mail.bytes})
      ON CONFLICT (org_id, team_id, day, hour) DO UPDATE SET
        emails = analytics_hourly.emails + excluded.emails,
        email_bytes = analytics_hourly.email_bytes + excluded.email_bytes`;
    if (mail.domain !== null) {
      await this.db.$executeRaw`
      INSERT INTO analytics_domain_daily (org_id, domain, day, emails)
      VALUES (${orgId}::uuid, ${mail.domain}, ${at.day}::date, 1)
      ON CONFLICT (org_id, domain, day) DO UPDATE SET emails = analytics_domain_daily.emails + excluded.emails`;
    }
    if (mail.senderDomain === null) return;
    await this.db.$executeRaw`
      INSERT INTO analytics_sender_domains (org_id, sender_domain, emails)
      VALUES (${orgId}::uuid, ${mail.senderDomain}, 1)
      ON CONFLICT (org_id, sender_domain) DO UPDATE SET emails = analytics_sender_domains.emails + excluded.emails`;
  }

  /** A new inbox: the team's lifetime and active counts, and its day and hour. */
  async countInboxCreated(scope: TeamScope, at: Bucket): Promise<void> {
    const { orgId, teamId } = scope;
    await this.db.$executeRaw`
      INSERT INTO analytics_team_totals (org_id, team_id, inboxes_created, active_inboxes)
      VALUES (${orgId}::uuid, ${teamId}::uuid, 1, 1)
      ON CONFLICT (org_id, team_id) DO UPDATE SET
        inboxes_created = analytics_team_totals.inboxes_created + excluded.inboxes_created,
        active_inboxes = analytics_team_totals.active_inboxes + excluded.active_inboxes`;
    await this.db.$executeRaw`
      INSERT INTO analytics_hourly (org_id, team_id, day, hour, inboxes_created)
      VALUES (${orgId}::uuid, ${teamId}::uuid, ${at.day}::date, ${at.hour}, 1)
      ON CONFLICT (org_id, team_id, day, hour) DO UPDATE SET
        inboxes_created = analytics_hourly.inboxes_created + excluded.inboxes_created`;
  }

  /** An inbox expired or was deleted: one fewer active (never below zero); the lifetime counts stay. */
  async countInboxGone(scope: TeamScope): Promise<void> {
    await this.db.$executeRaw`
      UPDATE analytics_team_totals SET active_inboxes = active_inboxes - 1
      WHERE org_id = ${scope.orgId}::uuid AND team_id = ${scope.teamId}::uuid AND active_inboxes > 0`;
  }

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

function toTotals(r: { emails: bigint; email_bytes: bigint; inboxes_created: bigint; active_inboxes: bigint } | undefined): Totals {
  return {
    emails: num(r?.emails),
    emailBytes: num(r?.email_bytes),
    inboxesCreated: num(r?.inboxes_created),
    activeInboxes: num(r?.active_inboxes),
  };
}
