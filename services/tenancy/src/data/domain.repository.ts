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
