import type { GetInboxAccessReply, Inbox, SmtpBehaviour } from "@burnbox/contracts";
import { HotRepository, type OrgScope, type PoolSql, type TeamScope } from "@burnbox/service-kit/data";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { countsOf, NO_MAIL, type InboxCounts } from "./counts";
import { behaviourFrom } from "../domain/smtp/behaviour-rules";
import { isUniqueViolation, Prisma, type Client } from "./prisma";

type InboxRow = Prisma.InboxGetPayload<object>;

/** What an access decision on one inbox needs: its tenant, domain assignment, owner, visibility and state. */
export type InboxAccess = NonNullable<GetInboxAccessReply["inbox"]>;

export interface NewInbox {
  id: string;
  domainId: string;
  domainAssignmentId: string;
  createdBy: string;
  address: string;
  domainName: string;
  fullAddress: string;
  private: boolean;
  createdAt: Date;
  expiresAt: Date;
  ttlMs: number;
  /** Normalized (`normalizedSmtpBehaviour`); absent or null: normal behaviour. */
  smtpBehaviour?: SmtpBehaviour | null;
}

/**
 * The inboxes of some teams that one user may see: the shared ones, and the private ones they
 * created; on a team's `ownOnlyAssignments` (tenancy's decision, `own_only_assignments`), only
 * those they created.
 */
export interface InboxListing {
  teams: Array<TeamScope & { ownOnlyAssignments?: readonly string[] | undefined }>;
  viewerId: string;
  /** `active`: active and unexpired at `at`; `expired`: the others (not yet cleaned up); all when omitted. */
  status?: { is: "active" | "expired"; at: Date } | undefined;
  /** An address substring (case-insensitive). */
  search?: string | undefined;
}

/** What extending an inbox needs to know about it. */
export interface InboxLifetime {
  domainAssignmentId: string;
  createdAt: Date;
  ttlMs: number;
}

export interface RemovedInbox {
  id: string;
  fullAddress: string;
  isActive: boolean;
}

export interface ExpiredInbox {
  id: string;
  orgId: string;
  teamId: string;
  fullAddress: string;
  createdBy: string;
}

/** What one step of the TTL cleanup did (`expireStep`). */
export interface ExpireStep {
  /** Expired inboxes this step held: 0 when none is left to clean up (or other replicas hold them all). */
  claimed: number;
  /** Emails deleted. */
  emails: number;
  /** The stored keys of the deleted emails and attachments: their files are the caller's to remove after commit. */
  keys: string[];
  /** The inboxes deleted, emptied by this step or before. */
  removed: ExpiredInbox[];
}

export function toInbox(i: InboxRow, counts: InboxCounts = NO_MAIL): Inbox {
  return {
    id: i.id,
    team_id: i.teamId,
    org_id: i.orgId,
    domain_id: i.domainId,
    domain_assignment_id: i.domainAssignmentId,
    created_by: i.createdBy,
    address: i.address,
    full_address: i.fullAddress,
    is_active: i.isActive,
    private: i.private,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
    email_count: counts.email_count,
    unread_count: counts.unread_count,
    smtp_behaviour: behaviourFrom(i.smtpBehaviour),
  };
}

/**
 * The changes of inboxes that commit no event (a domain event says what changed otherwise),
 * recorded in the transaction for the caches that hold inboxes (the intake's recipients).
 */
export const InboxChange = {
  teamMoved: "inboxes.team_moved",
  domainDeactivated: "inboxes.domain_deactivated",
  /** `{ inbox_id, full_address }`: the intakes read the inbox's SMTP behaviour again. */
  smtpBehaviourChanged: "inboxes.smtp_behaviour_changed",
} as const;

/** A behaviour as its nullable JSON column takes it (SQL NULL for none). */
const jsonOrDbNull = (b: SmtpBehaviour | null | undefined) => (b ? (b as Prisma.InputJsonObject) : Prisma.DbNull);

/** The columns `InboxAccess` is read from (also through an email's inbox). */
export const inboxAccessFields = {
  id: true,
  orgId: true,
  teamId: true,
  domainAssignmentId: true,
  createdBy: true,
  private: true,
  isActive: true,
} as const;
export const toInboxAccess = (i: Prisma.InboxGetPayload<{ select: typeof inboxAccessFields }>): InboxAccess => ({
  id: i.id,
  org_id: i.orgId,
  team_id: i.teamId,
  domain_assignment_id: i.domainAssignmentId,
  created_by: i.createdBy,
  private: i.private,
  is_active: i.isActive,
});

const statusWhere = (status: NonNullable<InboxListing["status"]>): Prisma.InboxWhereInput =>
  status.is === "active"
    ? { isActive: true, expiresAt: { gt: status.at } }
    : { OR: [{ isActive: false }, { expiresAt: { lte: status.at } }] };

const listingWhere = (l: InboxListing): Prisma.InboxWhereInput => ({
  // an empty OR matches nothing: no teams, no inboxes
  OR: l.teams.map((t) => ({
    orgId: t.orgId,
    teamId: t.teamId,
    ...(t.ownOnlyAssignments?.length
      ? { OR: [{ domainAssignmentId: { notIn: [...t.ownOnlyAssignments] } }, { createdBy: l.viewerId }] }
      : {}),
  })),
  AND: [
    { OR: [{ private: false }, { createdBy: l.viewerId }] },
    ...(l.status ? [statusWhere(l.status)] : []),
    ...(l.search ? [{ fullAddress: { contains: l.search, mode: "insensitive" as const } }] : []),
  ],
});

export class InboxRepository {
  /** `changes`: inside `write()`, where a change that commits no event is recorded for the caches (`InboxChange`). */
  constructor(
    private readonly db: Client,
    private readonly changes?: ChangeLog,
  ) {}

  /** Throws a conflict when the address is taken. */
  async create(scope: TeamScope, fields: NewInbox): Promise<Inbox> {
    try {
      const data = {
        ...fields,
        ttlMs: BigInt(fields.ttlMs),
        smtpBehaviour: jsonOrDbNull(fields.smtpBehaviour),
        orgId: scope.orgId,
        teamId: scope.teamId,
      };
      return toInbox(await this.db.inbox.create({ data }));
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.conflict("address already in use");
      throw err;
    }
  }

  /** The tenant and access fields of an inbox found by its id alone, before anyone is authorized to read it. */
  async locate(inboxId: string): Promise<InboxAccess | null> {
    const row = await this.db.inbox.findUnique({ where: { id: inboxId }, select: inboxAccessFields });
    return row && toInboxAccess(row);
  }

  /** When the inbox expires (a wait ends then); null when it is gone or not in `scope`. */
  async expiresAt(scope: TeamScope, inboxId: string): Promise<Date | null> {
    const row = await this.db.inbox.findFirst({
      where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId },
      select: { expiresAt: true },
    });
    return row?.expiresAt ?? null;
  }

  async get(scope: TeamScope, inboxId: string): Promise<Inbox | null> {
    const row = await this.db.inbox.findFirst({ where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId } });
    if (!row) return null;
    return toInbox(row, (await countsOf(this.db, [row.id])).get(row.id));
  }

  async lifetime(scope: TeamScope, inboxId: string): Promise<InboxLifetime | null> {
    const row = await this.db.inbox.findFirst({
      where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId },
      select: { domainAssignmentId: true, createdAt: true, ttlMs: true },
    });
    return row && { domainAssignmentId: row.domainAssignmentId, createdAt: row.createdAt, ttlMs: Number(row.ttlMs) };
  }

  /** Sets a new expiry; null when the inbox is gone. */
  async extend(scope: TeamScope, inboxId: string, expiresAt: Date): Promise<Inbox | null> {
    const { count } = await this.db.inbox.updateMany({
      where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId },
      data: { expiresAt },
    });
    return count === 0 ? null : this.get(scope, inboxId);
  }

  /**
   * Replaces the inbox's SMTP behaviour (null: normal); null when the inbox is gone. Recorded for
   * the intakes' recipient caches (`RECIPIENT_CHANGES`), which keep each inbox's behaviour.
   */
  async setSmtpBehaviour(scope: TeamScope, inboxId: string, behaviour: SmtpBehaviour | null): Promise<Inbox | null> {
    const { count } = await this.db.inbox.updateMany({
      where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId },
      data: { smtpBehaviour: jsonOrDbNull(behaviour) },
    });
    if (count === 0) return null;
    const inbox = await this.get(scope, inboxId);
    if (inbox)
      this.changes?.record({
        type: InboxChange.smtpBehaviourChanged,
        org_id: scope.orgId,
        team_id: scope.teamId,
        data: { inbox_id: inbox.id, full_address: inbox.full_address },
      });
    return inbox;
  }

  /** Deletes an inbox with its mail rows (its files are the caller's to remove after commit); null when absent. */
  async remove(scope: TeamScope, inboxId: string): Promise<RemovedInbox | null> {
    const rows = await this.db.inbox.findMany({
      where: { id: inboxId, orgId: scope.orgId, teamId: scope.teamId },
      select: { id: true, fullAddress: true, isActive: true },
    });
    const row = rows[0];
    if (!row) return null;
    const { count } = await this.db.inbox.deleteMany({ where: { id: row.id, orgId: scope.orgId, teamId: scope.teamId } });
    return count === 0 ? null : row;
  }

  /** Newest first, with their mail counts. */
  async list(listing: InboxListing, window: { skip: number; take: number }): Promise<Inbox[]> {
    const rows = await this.db.inbox.findMany({
      where: listingWhere(listing),
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    const counts = await countsOf(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toInbox(r, counts.get(r.id)));
  }

  count(listing: InboxListing): Promise<number> {
    return this.db.inbox.count({ where: listingWhere(listing) });
  }

  /**
   * One step of the TTL cleanup, in the caller's transaction. Claims up to `limits.inboxes` inboxes
   * (of any tenant) whose TTL lapsed by `at`, oldest expiry first, FOR UPDATE SKIP LOCKED (replicas
   * cleaning up together take different inboxes); deletes up to `limits.emails` of their emails
   * (attachments' and transcripts' rows with them) and returns the stored keys those rows held;
   * then deletes the claimed inboxes that hold no more mail and returns them. So no statement
   * deletes an unbounded amount of mail, and an emptied inbox goes in the step that empties it:
   * the next step's claim and delete read only the inboxes still to do (the old shape looked for
   * mail through every expired inbox, emptied ones included, and read more dead rows each batch).
   * `claimed` 0: nothing (left) to do.
   */
  async expireStep(at: Date, limits: { inboxes: number; emails: number }): Promise<ExpireStep> {
    const claimed = await this.db.$queryRaw<
      Array<{ id: string; org_id: string; team_id: string; full_address: string; created_by: string }>
    >`
      SELECT id, org_id, team_id, full_address, created_by FROM inboxes
      WHERE expires_at <= ${at} ORDER BY expires_at LIMIT ${limits.inboxes} FOR UPDATE SKIP LOCKED`;
    if (claimed.length === 0) return { claimed: 0, emails: 0, keys: [], removed: [] };
    const ids = claimed.map((r) => r.id);
    // one statement: the CTE's delete and the select share a snapshot, so the select still sees
    // the attachments' rows the delete's cascade removes
    const gone = await this.db.$queryRaw<Array<{ key: string | null; email: boolean }>>`
      WITH gone AS (
        DELETE FROM emails WHERE id IN (
          SELECT id FROM emails WHERE inbox_id = ANY(${ids}::uuid[]) LIMIT ${limits.emails})
        RETURNING id, raw_key)
      SELECT raw_key AS key, true AS email FROM gone
      UNION ALL SELECT a.storage_key, false FROM attachments a JOIN gone ON a.email_id = gone.id`;
    // a later statement of the transaction sees this one's deletes; the inboxes are locked, so no
    // mail arrives in them meanwhile
    const emptied = await this.db.$queryRaw<Array<{ id: string }>>`
      DELETE FROM inboxes i WHERE i.id = ANY(${ids}::uuid[])
        AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.inbox_id = i.id)
      RETURNING i.id`;
    const removedIds = new Set(emptied.map((r) => r.id));
    return {
      claimed: claimed.length,
      emails: gone.filter((g) => g.email).length,
      keys: gone.flatMap((g) => (g.key ? [g.key] : [])),
      removed: claimed
        .filter((r) => removedIds.has(r.id))
        .map((r) => ({ id: r.id, orgId: r.org_id, teamId: r.team_id, fullAddress: r.full_address, createdBy: r.created_by })),
    };
  }

  /**
   * Deletes up to `limit` inboxes of a removed org (or of one of its teams) with their mail rows,
   * and returns them (their files are the caller's to remove after commit). A team is matched by
   * its id alone (ids are unique), so a removal processed before the team's move still finds it.
   * Rows the cleanup worker holds are skipped: it removes them itself.
   */
  async removeBatchOf(scope: OrgScope | TeamScope, limit: number): Promise<RemovedTenantInbox[]> {
    const rows =
      "teamId" in scope
        ? await this.db.$queryRaw<RemovedRow[]>`
            SELECT id, team_id, full_address FROM inboxes WHERE team_id = ${scope.teamId}::uuid LIMIT ${limit} FOR UPDATE SKIP LOCKED`
        : await this.db.$queryRaw<RemovedRow[]>`
            SELECT id, team_id, full_address FROM inboxes WHERE org_id = ${scope.orgId}::uuid LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    if (rows.length === 0) return [];
    await this.db.inbox.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return rows.map((r) => ({ id: r.id, teamId: r.team_id, fullAddress: r.full_address }));
  }

  /** Re-files a team's inboxes under the org it was transferred to; returns how many. */
  async moveTeam(scope: TeamScope, toOrgId: string): Promise<number> {
    const { count } = await this.db.inbox.updateMany({ where: { teamId: scope.teamId }, data: { orgId: toOrgId } });
    if (count > 0)
      this.changes?.record({ type: InboxChange.teamMoved, org_id: scope.orgId, team_id: scope.teamId, data: { to_org_id: toOrgId } });
    return count;
  }

  /**
   * Deactivates the org's inboxes on a domain that moved to another org (`domain.transferred`):
   * under the domain's lock, so a create counted under it commits first; returns how many.
   */
  async deactivateOnDomain(scope: OrgScope, domainId: string): Promise<number> {
    await this.db.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", `inbox-domain:${domainId}`);
    const { count } = await this.db.inbox.updateMany({
      where: { orgId: scope.orgId, domainId, isActive: true },
      data: { isActive: false },
    });
    if (count > 0)
      this.changes?.record({ type: InboxChange.domainDeactivated, org_id: scope.orgId, team_id: null, data: { domain_id: domainId } });
    return count;
  }

  /**
   * How many of the org's inboxes (a team's, with `teamId`) each of these domains holds: active
   * ones (not deactivated, not past `expires_at` at `at`) and all stored ones.
   */
  async countOnDomains(
    scope: OrgScope,
    domainIds: string[],
    teamId: string | null,
    at: Date,
  ): Promise<Map<string, { active: number; total: number }>> {
    const where = { orgId: scope.orgId, domainId: { in: domainIds }, ...(teamId ? { teamId } : {}) };
    const [total, active] = await Promise.all([
      this.db.inbox.groupBy({ by: ["domainId"], where, _count: { _all: true } }),
      this.db.inbox.groupBy({ by: ["domainId"], where: { ...where, isActive: true, expiresAt: { gt: at } }, _count: { _all: true } }),
    ]);
    const counts = new Map(domainIds.map((id) => [id, { active: 0, total: 0 }]));
    for (const row of total) counts.get(row.domainId)!.total = row._count._all;
    for (const row of active) counts.get(row.domainId)!.active = row._count._all;
    return counts;
  }

  /**
   * The active inboxes of a domain at `at`, counted under the domain's lock, which is held until
   * the transaction ends: two creates at the limit are counted one after the other, never together.
   */
  async countActiveOnDomainLocked(domainId: string, at: Date): Promise<number> {
    await this.db.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", `inbox-domain:${domainId}`);
    return this.db.inbox.count({ where: { domainId, isActive: true, expiresAt: { gt: at } } });
  }
}

interface RemovedRow {
  id: string;
  team_id: string;
  full_address: string;
}
export interface RemovedTenantInbox {
  id: string;
  teamId: string;
  fullAddress: string;
}

/** The inboxes' hot read, on the pool alone (`hot.inboxes`): never part of a transaction. */
export class InboxReadRepository extends HotRepository {
  constructor(private readonly sql: PoolSql) {
    super();
  }

  /** `locate` as one prepared statement on the pool (a wait's first statement). */
  async locate(inboxId: string): Promise<InboxAccess | null> {
    const rows = await this.sql<{
      id: string;
      orgId: string;
      teamId: string;
      domainAssignmentId: string;
      createdBy: string;
      private: boolean;
      isActive: boolean;
    }>`
      SELECT id::text, org_id::text AS "orgId", team_id::text AS "teamId", domain_assignment_id::text AS "domainAssignmentId",
        created_by::text AS "createdBy", private, is_active AS "isActive"
      FROM inboxes WHERE id = ${inboxId}::uuid`;
    return rows[0] ? toInboxAccess(rows[0]) : null;
  }

  /**
   * The hot read (`GET /inboxes/:id`) in one statement: the inbox by id with its access fields and
   * mail counts. Unscoped like `locate`: the caller authorizes on `access` before it uses `inbox`.
   * One statement on the pool: Prisma's runtime was the largest cost of this path (docs/performance.md).
   */
  async locateWithCounts(inboxId: string): Promise<{ access: InboxAccess; inbox: Inbox } | null> {
    const rows = await this.sql<InboxRow & { total: bigint | string; unread: bigint | string }>`
      SELECT i.id::text, i.org_id::text AS "orgId", i.team_id::text AS "teamId", i.domain_id::text AS "domainId",
        i.domain_assignment_id::text AS "domainAssignmentId", i.created_by::text AS "createdBy", i.address,
        i.domain_name AS "domainName", i.full_address AS "fullAddress", i.is_active AS "isActive", i.private,
        i.expires_at AS "expiresAt", i.ttl_ms AS "ttlMs", i.created_at AS "createdAt", i.smtp_behaviour AS "smtpBehaviour",
        (SELECT count(*) FROM emails e WHERE e.inbox_id = i.id) AS total,
        (SELECT count(*) FROM emails e WHERE e.inbox_id = i.id AND NOT e.is_read) AS unread
      FROM inboxes i WHERE i.id = ${inboxId}::uuid`;
    const row = rows[0];
    if (!row) return null;
    return {
      access: toInboxAccess(row),
      inbox: toInbox(row, { email_count: Number(row.total), unread_count: Number(row.unread) }),
    };
  }
}
