import type { Domain } from "@burnbox/contracts";
import { errors, type OrgScope } from "@burnbox/service-kit";
import type { Prisma } from "../generated/prisma";
import { iso, jsonObject, uniqueOr, type Client } from "./prisma";

const withCounts = { _count: { select: { assignments: true } } } as const;
type DomainRow = Prisma.DomainGetPayload<{ include: typeof withCounts }>;

function toDomain(d: DomainRow): Domain {
  return {
    id: d.id,
    org_id: d.orgId,
    domain_name: d.domainName,
    description: d.description,
    // the column only ever holds DomainStatus values: this service is its one writer
    status: d.status as Domain["status"],
    mx_verified: d.mxVerified,
    txt_verified: d.txtVerified,
    spf_verified: d.spfVerified,
    verification_record: d.verificationRecord,
    dns_last_checked_at: iso(d.dnsLastCheckedAt),
    settings: jsonObject(d.settings),
    active_inboxes: d.activeInboxes,
    total_inboxes: d.totalInboxes,
    team_count: d._count.assignments,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export interface NewDomain {
  id: string;
  domainName: string;
  description: string | null;
  status: Domain["status"];
  /** Sets the MX, TXT and SPF checks at once (a trusted domain passes all three). */
  dnsVerified: boolean;
  verificationRecord: string;
}

export interface DomainFilter {
  q?: string;
  status?: Domain["status"];
}

const whereFiltered = (scope: OrgScope, filter: DomainFilter): Prisma.DomainWhereInput => ({
  orgId: scope.orgId,
  ...(filter.status ? { status: filter.status } : {}),
  ...(filter.q ? { domainName: { contains: filter.q.toLowerCase() } } : {}),
});

/** The mail domains an org owns, with their inbox counters. */
export class DomainRepository {
  constructor(private readonly db: Client) {}

  /** A domain name is unique across all orgs: a taken one is a conflict. */
  async create(scope: OrgScope, fields: NewDomain): Promise<Domain> {
    const { dnsVerified, ...rest } = fields;
    const row = await uniqueOr(
      this.db.domain.create({
        data: { ...rest, orgId: scope.orgId, mxVerified: dnsVerified, txtVerified: dnsVerified, spfVerified: dnsVerified, settings: {} },
        include: withCounts,
      }),
      () => errors.conflict("domain already exists"),
    );
    return toDomain(row);
  }

  async get(scope: OrgScope, domainId: string): Promise<Domain | null> {
    const row = await this.db.domain.findFirst({ where: { id: domainId, orgId: scope.orgId }, include: withCounts });
    return row ? toDomain(row) : null;
  }

  /** One window of the org's domains, oldest first. */
  async list(scope: OrgScope, filter: DomainFilter, window: { skip: number; take: number }): Promise<Domain[]> {
    const rows = await this.db.domain.findMany({
      where: whereFiltered(scope, filter),
      include: withCounts,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(toDomain);
  }

  count(scope: OrgScope, filter: DomainFilter = {}): Promise<number> {
    return this.db.domain.count({ where: whereFiltered(scope, filter) });
  }

  async update(
    scope: OrgScope,
    domainId: string,
    changes: { description?: string | null; settings?: Record<string, unknown> },
  ): Promise<Domain> {
    const data: Prisma.DomainUpdateInput = {
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.settings ? { settings: changes.settings as Prisma.InputJsonObject } : {}),
    };
    return toDomain(await this.db.domain.update({ where: { id: domainId, orgId: scope.orgId }, data, include: withCounts }));
  }

  /** The domain with its assignments. */
  async delete(scope: OrgScope, domainId: string): Promise<void> {
    await this.db.domain.deleteMany({ where: { id: domainId, orgId: scope.orgId } });
  }

  /** The org of a domain known only by its name (an inbox address names it), or null. */
  async locateByName(domainName: string): Promise<{ orgId: string; domainId: string } | null> {
    const row = await this.db.domain.findUnique({ where: { domainName }, select: { id: true, orgId: true } });
    return row ? { orgId: row.orgId, domainId: row.id } : null;
  }

  /** An inbox opened (+1: active and total) or expired (-1: active, never below zero) on the domain. */
  async countInbox(scope: OrgScope, domainId: string, delta: 1 | -1): Promise<void> {
    await this.db.domain.updateMany({
      where: { id: domainId, orgId: scope.orgId, ...(delta < 0 ? { activeInboxes: { gt: 0 } } : {}) },
      data: delta > 0 ? { activeInboxes: { increment: 1 }, totalInboxes: { increment: 1 } } : { activeInboxes: { decrement: 1 } },
    });
  }
}
