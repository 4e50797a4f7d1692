import type { Domain, DomainVerification } from "@burnbox/contracts";
import { dkimRecord, type DkimKey } from "../domain/domains/dkim-key";
import type { OrgScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { iso, jsonObject, uniqueOr, type Client } from "./prisma";

const withCounts = { _count: { select: { assignments: true } } } as const;
type DomainRow = Prisma.DomainGetPayload<{ include: typeof withCounts }>;

function toDomain(d: DomainRow, mxTarget: string): Domain {
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
    dkim_verified: d.dkimVerified,
    verification_record: d.verificationRecord,
    // the public half only: the sealed private key never leaves through the API
    dkim_record: d.dkimSelector && d.dkimPublicKey ? dkimRecord(d.domainName, d.dkimSelector, d.dkimPublicKey) : null,
    mx_target: mxTarget,
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
  /** Its DKIM key (extensions 10); null when none could be made (no `encryption.key`). */
  dkim: DkimKey | null;
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
  constructor(
    private readonly db: Client,
    /** `smtp.hostname`, shown on every domain as the MX target. */
    private readonly mxTarget: string,
  ) {}

  private readonly toDomain = (d: DomainRow): Domain => toDomain(d, this.mxTarget);

  /** A domain name is unique across all orgs: a taken one is a conflict. */
  async create(scope: OrgScope, fields: NewDomain): Promise<Domain> {
    const { dnsVerified, dkim, ...rest } = fields;
    const row = await uniqueOr(
      this.db.domain.create({
        data: {
          ...rest,
          orgId: scope.orgId,
          mxVerified: dnsVerified,
          txtVerified: dnsVerified,
          spfVerified: dnsVerified,
          ...(dkim ? { dkimSelector: dkim.selector, dkimPublicKey: dkim.publicKey, dkimPrivateSealed: dkim.privateSealed } : {}),
          settings: {},
        },
        include: withCounts,
      }),
      () => errors.conflict("domain already exists"),
    );
    return this.toDomain(row);
  }

  async get(scope: OrgScope, domainId: string): Promise<Domain | null> {
    const row = await this.db.domain.findFirst({ where: { id: domainId, orgId: scope.orgId }, include: withCounts });
    return row ? this.toDomain(row) : null;
  }

  /** One window of the org's domains, oldest first. */
  async list(scope: OrgScope, filter: DomainFilter, window: { skip: number; take: number }): Promise<Domain[]> {
    const rows = await this.db.domain.findMany({
      where: whereFiltered(scope, filter),
      include: withCounts,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(this.toDomain);
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
    return this.toDomain(await this.db.domain.update({ where: { id: domainId, orgId: scope.orgId }, data, include: withCounts }));
  }

  /** The domain with its assignments. */
  async delete(scope: OrgScope, domainId: string): Promise<void> {
    await this.db.domain.deleteMany({ where: { id: domainId, orgId: scope.orgId } });
  }

  /** Stores a DNS check: the flags and status it derived (unchanged on a DNS error) and its history row. */
  async recordCheck(
    scope: OrgScope,
    domainId: string,
    check: {
      id: string;
      at: Date;
      trigger: DomainVerification["trigger"];
      flags: { mx: boolean; txt: boolean; spf: boolean; dkim: boolean | null } | null;
      status: Domain["status"] | null;
      error: string | null;
    },
  ): Promise<Domain> {
    await this.db.domainVerification.create({
      data: {
        id: check.id,
        domainId,
        checkedAt: check.at,
        trigger: check.trigger,
        mxResult: check.flags?.mx ?? null,
        txtResult: check.flags?.txt ?? null,
        spfResult: check.flags?.spf ?? null,
        dkimResult: check.flags?.dkim ?? null,
        error: check.error,
      },
    });
    const row = await this.db.domain.update({
      where: { id: domainId, orgId: scope.orgId },
      data: {
        dnsLastCheckedAt: check.at,
        ...(check.flags && check.status
          ? {
              mxVerified: check.flags.mx,
              txtVerified: check.flags.txt,
              spfVerified: check.flags.spf,
              dkimVerified: check.flags.dkim === true,
              status: check.status,
            }
          : {}),
      },
      include: withCounts,
    });
    return this.toDomain(row);
  }

  async history(scope: OrgScope, domainId: string, window: { skip: number; take: number }): Promise<DomainVerification[]> {
    const rows = await this.db.domainVerification.findMany({
      where: { domainId, domain: { orgId: scope.orgId } },
      orderBy: [{ checkedAt: "desc" }, { id: "asc" }],
      ...window,
    });
    return rows.map((r) => ({
      id: r.id,
      checked_at: r.checkedAt.toISOString(),
      // the column only ever holds trigger values: this service is its one writer
      trigger: r.trigger as DomainVerification["trigger"],
      mx_result: r.mxResult,
      txt_result: r.txtResult,
      spf_result: r.spfResult,
      dkim_result: r.dkimResult,
      error: r.error,
    }));
  }

  countHistory(scope: OrgScope, domainId: string): Promise<number> {
    return this.db.domainVerification.count({ where: { domainId, domain: { orgId: scope.orgId } } });
  }

  /**
   * Claims up to `limit` unverified domains not checked since `before`, locked until the
   * transaction ends and skipping those another replica holds (FOR UPDATE SKIP LOCKED).
   */
  async claimDue(
    before: Date,
    limit: number,
  ): Promise<Array<{ orgId: string; domainId: string; domainName: string; verificationRecord: string }>> {
    const rows = await this.db.$queryRaw<Array<{ id: string; org_id: string; domain_name: string; verification_record: string }>>`
      SELECT id, org_id, domain_name, verification_record FROM domains
      WHERE status <> 'verified' AND (dns_last_checked_at IS NULL OR dns_last_checked_at < ${before})
      ORDER BY dns_last_checked_at NULLS FIRST, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    return rows.map((r) => ({ orgId: r.org_id, domainId: r.id, domainName: r.domain_name, verificationRecord: r.verification_record }));
  }

  /** The DNS check's view of a domain's DKIM key: its selector and public half, or null. */
  async dkimPublic(scope: OrgScope, domainId: string): Promise<{ selector: string; publicKey: string } | null> {
    const row = await this.db.domain.findFirst({
      where: { id: domainId, orgId: scope.orgId },
      select: { dkimSelector: true, dkimPublicKey: true },
    });
    return row?.dkimSelector && row.dkimPublicKey ? { selector: row.dkimSelector, publicKey: row.dkimPublicKey } : null;
  }

  /**
   * The signing key of a domain known by its name (an inbox address names it), sealed, for the inbox
   * service's mail out (the `tenancy.dkim_key` RPC); null when unknown or not made yet.
   */
  async dkimSigningKey(domainName: string): Promise<{ selector: string; privateSealed: string } | null> {
    const row = await this.db.domain.findUnique({ where: { domainName }, select: { dkimSelector: true, dkimPrivateSealed: true } });
    return row?.dkimSelector && row.dkimPrivateSealed ? { selector: row.dkimSelector, privateSealed: row.dkimPrivateSealed } : null;
  }

  /**
   * Claims up to `limit` domains without a DKIM key (older than extensions 10, or made by the
   * previous release during an upgrade), locked until the transaction ends, skipping those another
   * replica holds.
   */
  async claimWithoutDkim(limit: number): Promise<Array<{ id: string }>> {
    return this.db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM domains WHERE dkim_selector IS NULL ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  }

  /** Stores a key made for a domain that had none (the backfill); a key it already has is kept. */
  async setDkim(domainId: string, key: DkimKey): Promise<void> {
    await this.db.domain.updateMany({
      where: { id: domainId, dkimSelector: null },
      data: { dkimSelector: key.selector, dkimPublicKey: key.publicKey, dkimPrivateSealed: key.privateSealed },
    });
  }

  /** The org of a domain known only by its name (an inbox address names it), or null. */
  async locateByName(domainName: string): Promise<{ orgId: string; domainId: string } | null> {
    const row = await this.db.domain.findUnique({ where: { domainName }, select: { id: true, orgId: true } });
    return row ? { orgId: row.orgId, domainId: row.id } : null;
  }
}
