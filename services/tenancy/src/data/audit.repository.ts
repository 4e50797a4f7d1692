import type { AuditEntry, AuditFilter, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate, type OrgScope } from "@burnbox/service-kit/data";
import { Prisma } from "../generated/prisma";
import { jsonObject, type Client, type Db, type JsonValue } from "./prisma";

/** An entry as the consumer stores it (`id` is the audit event's id). */
export interface NewAuditEntry {
  id: string;
  orgId: string | null;
  teamId: string | null;
  actorId: string | null;
  actorEmail: string | null;
  actorType: AuditEntry["actor_type"];
  actorApiKeyId: string | null;
  action: string;
  category: AuditEntry["category"];
  severity: AuditEntry["severity"];
  resourceType: string;
  resourceId: string | null;
  resourceName: string | null;
  metadata: Record<string, unknown>;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
}

/** Which entries a read sees: one org's, or (system administrators) every entry. */
export type AuditReach = { org: OrgScope } | { everyOrg: true };

interface AuditRow {
  id: string;
  org_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  actor_type: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  metadata: JsonValue;
  ip_address: string | null;
  user_agent: string | null;
  severity: string;
  category: string;
  created_at: Date;
}

const COLUMNS = Prisma.sql`id, org_id, actor_id, actor_email, actor_type, action, resource_type, resource_id, resource_name,
  metadata, ip_address, user_agent, severity, category, created_at`;
/** Newest first; the id breaks ties so pages and exports never repeat or skip an entry. */
const NEWEST_FIRST = Prisma.sql`ORDER BY created_at DESC, id DESC`;

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  org_id: r.org_id,
  actor_id: r.actor_id,
  actor_email: r.actor_email,
  actor_type: r.actor_type as AuditEntry["actor_type"],
  action: r.action,
  resource_type: r.resource_type,
  resource_id: r.resource_id,
  resource_name: r.resource_name,
  metadata: jsonObject(r.metadata),
  ip_address: r.ip_address,
  user_agent: r.user_agent,
  severity: r.severity as AuditEntry["severity"],
  category: r.category as AuditEntry["category"],
  created_at: r.created_at.toISOString(),
});

/** The conditions a filter adds to the reach: none for an unfiltered list. */
function filterConds(f: AuditFilter): Prisma.Sql[] {
  const conds: Prisma.Sql[] = [];
  if (f.action) conds.push(Prisma.sql`action = ${f.action}`);
  if (f.category) conds.push(Prisma.sql`category = ${f.category}`);
  if (f.severity) conds.push(Prisma.sql`severity = ${f.severity}`);
  if (f.actor_id) conds.push(Prisma.sql`actor_id = ${f.actor_id}::uuid`);
  if (f.actor_email) conds.push(Prisma.sql`actor_email = ${f.actor_email.toLowerCase()}`);
  if (f.resource_type) conds.push(Prisma.sql`resource_type = ${f.resource_type}`);
  if (f.resource_id) conds.push(Prisma.sql`resource_id = ${f.resource_id}`);
  if (f.date_from) conds.push(Prisma.sql`created_at >= ${f.date_from}`);
  if (f.date_to) conds.push(Prisma.sql`created_at <= ${f.date_to}`);
  return conds;
}

/** The WHERE clause of a read: the reach first (so every query is an index range of one org), then each filter. */
function whereOf(reach: AuditReach, filters: Prisma.Sql[]): Prisma.Sql {
  const conds = "org" in reach ? [Prisma.sql`org_id = ${reach.org.orgId}::uuid`, ...filters] : filters;
  return conds.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conds, " AND ")}` : Prisma.empty;
}

/** Rows fetched from the export's cursor at a time. */
const EXPORT_BATCH = 500;

/** The audit log: written by its one consumer, read by the org's auditors and system administrators. */
export class AuditRepository {
  constructor(private readonly db: Client) {}

  /** Stores an entry once: a second delivery of the same event inserts nothing (false). */
  async record(e: NewAuditEntry): Promise<boolean> {
    const { count } = await this.db.auditEntry.createMany({
      data: [{ ...e, metadata: e.metadata as Prisma.InputJsonObject }],
      skipDuplicates: true, // INSERT ... ON CONFLICT DO NOTHING on the event id
    });
    return count === 1;
  }

  /**
   * One page of the entries the reach sees, newest first, with the filtered total: unfiltered, the
   * total the database keeps (`keptTotal`); filtered, the matches counted.
   */
  async page(reach: AuditReach, filter: AuditFilter, query: PaginationQuery): Promise<Page<AuditEntry>> {
    const filters = filterConds(filter);
    const where = whereOf(reach, filters);
    return paginate(query, {
      rows: ({ skip, take }) =>
        this.db.$queryRaw<AuditRow[]>`SELECT ${COLUMNS} FROM audit_entries ${where} ${NEWEST_FIRST} LIMIT ${take} OFFSET ${skip}`,
      count: async () =>
        filters.length === 0
          ? this.keptTotal(reach)
          : ((await this.db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM audit_entries ${where}`)[0]?.n ?? 0),
      map: (rows) => rows.map(toEntry),
    });
  }

  /**
   * How many entries the reach holds, from the counts migration 0010's triggers keep (up to 16 rows
   * per org, and 16 for every entry, one per writing connection's slot, added up here): exact in
   * every transaction, a few rows whatever the log holds.
   */
  private async keptTotal(reach: AuditReach): Promise<number> {
    const rows =
      "org" in reach
        ? await this.db.$queryRaw<Array<{ n: number }>>`
            SELECT coalesce(sum(entries), 0)::int AS n FROM audit_org_entry_counts WHERE org_id = ${reach.org.orgId}::uuid`
        : await this.db.$queryRaw<Array<{ n: number }>>`SELECT coalesce(sum(entries), 0)::int AS n FROM audit_entry_totals`;
    return rows[0]?.n ?? 0;
  }

  /**
   * An org's entries for an export, newest first, at most `limit`: read through a server-side
   * cursor in batches of EXPORT_BATCH, each handed to `onBatch` (which may wait for the client)
   * before the next is fetched, so the export is never held whole in memory. The count and the
   * rows come from one snapshot. Resolves with whether more than `limit` entries matched.
   */
  async exportOrg(
    scope: OrgScope,
    filter: AuditFilter,
    opts: { limit: number; onStart: (truncated: boolean) => Promise<void>; onBatch: (entries: AuditEntry[]) => Promise<void> },
  ): Promise<void> {
    if (!("$transaction" in this.db)) throw new Error("an audit export runs on its own connection, not inside a change");
    const db: Db = this.db;
    const where = whereOf({ org: scope }, filterConds(filter));
    await db.$transaction(
      async (tx) => {
        const [probe] = await tx.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_entries ${where} LIMIT ${opts.limit + 1}) capped`;
        await opts.onStart((probe?.n ?? 0) > opts.limit);
        await tx.$executeRaw`DECLARE audit_export NO SCROLL CURSOR FOR
          SELECT ${COLUMNS} FROM audit_entries ${where} ${NEWEST_FIRST} LIMIT ${opts.limit}`;
        for (;;) {
          const rows = await tx.$queryRaw<AuditRow[]>`FETCH ${Prisma.raw(String(EXPORT_BATCH))} FROM audit_export`;
          if (rows.length > 0) await opts.onBatch(rows.map(toEntry));
          if (rows.length < EXPORT_BATCH) break;
        }
        await tx.$executeRaw`CLOSE audit_export`;
      },
      // a slow client may take a while to read 10,000 rows; the snapshot is read-only
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 300_000, maxWait: 10_000 },
    );
  }

  /** Deletes up to `batch` entries older than `cutoff` (rows another replica is deleting are skipped); returns how many. */
  deleteOlderThan(cutoff: Date, batch: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM audit_entries WHERE id IN (
        SELECT id FROM audit_entries WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)`;
  }
}
