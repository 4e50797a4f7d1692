import {
  SNAPSHOT_SCHEMES,
  SNAPSHOT_WIDTHS,
  type Snapshot,
  type SnapshotComparison,
  type SnapshotLink,
  type SnapshotMask,
} from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import { isUniqueViolation, type Prisma, type Client } from "./prisma";

type SnapshotRow = Prisma.SnapshotGetPayload<object>;
type ComparisonRow = Prisma.SnapshotComparisonGetPayload<object>;

/** What a baseline keeps of its email, masked (extensions section 12). */
export interface Baseline {
  emailId: string;
  masks: SnapshotMask[];
  subject: string;
  from: string;
  text: string;
  html: string | null;
  links: SnapshotLink[];
  /** The storage folder of its renders. */
  imagesKey: string;
}

/** A stored snapshot with what comparing needs, and its wire shape. */
export interface StoredSnapshot extends Baseline {
  id: string;
  name: string;
  wire: Snapshot;
}

/** Comparisons kept per snapshot, newest first; older ones go with their pictures. */
export const COMPARISONS_KEPT = 20;

/** Where a snapshot's pictures are served; the one place the URLs are spelled. */
export function snapshotImageUrl(
  scope: TeamScope,
  snapshotId: string,
  kind: "baseline" | "actual" | "diff",
  width: number,
  scheme: string,
  comparisonId?: string,
): string {
  const base = `/api/v1/orgs/${scope.orgId}/teams/${scope.teamId}/snapshots/${snapshotId}/images/${kind}/${width}/${scheme}`;
  return comparisonId ? `${base}?comparison=${comparisonId}` : base;
}

const linksOf = (json: unknown): SnapshotLink[] => (Array.isArray(json) ? (json as SnapshotLink[]) : []);
const masksOf = (json: unknown): SnapshotMask[] => (Array.isArray(json) ? (json as SnapshotMask[]) : []);

function toComparison(row: ComparisonRow): SnapshotComparison {
  return {
    ...(row.result as unknown as Omit<SnapshotComparison, "id" | "created_at">),
    id: row.id,
    created_at: row.createdAt.toISOString(),
  };
}

function toSnapshot(
  row: SnapshotRow,
  latest: ComparisonRow | null,
  renders: readonly { width: number; scheme: "light" | "dark" }[],
): StoredSnapshot {
  const scope = { orgId: row.orgId, teamId: row.teamId };
  const baseline: Baseline = {
    emailId: row.emailId,
    masks: masksOf(row.masks),
    subject: row.subject,
    from: row.fromAddress,
    text: row.bodyText,
    html: row.bodyHtml,
    links: linksOf(row.links),
    imagesKey: row.imagesKey,
  };
  return {
    ...baseline,
    id: row.id,
    name: row.name,
    wire: {
      id: row.id,
      org_id: row.orgId,
      team_id: row.teamId,
      name: row.name,
      email_id: row.emailId,
      masks: baseline.masks,
      subject: row.subject,
      from: row.fromAddress,
      text: row.bodyText,
      links: baseline.links,
      baseline_images: renders.map((r) => ({ ...r, url: snapshotImageUrl(scope, row.id, "baseline", r.width, r.scheme) })),
      latest_comparison: latest ? toComparison(latest) : null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    },
  };
}

const fieldsOf = (b: Baseline) => ({
  emailId: b.emailId,
  masks: b.masks as unknown as Prisma.InputJsonValue,
  subject: b.subject,
  fromAddress: b.from,
  bodyText: b.text,
  bodyHtml: b.html,
  links: b.links as unknown as Prisma.InputJsonValue,
  imagesKey: b.imagesKey,
});

const latestOnly = {
  comparisons: { orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: 1 },
} satisfies Prisma.SnapshotInclude;

/** A team's snapshots and their comparisons; every method takes the team. */
export class SnapshotRepository {
  /** Which renders a baseline has (the widths and schemes of section 12), for the wire shape. */
  private readonly renders = SNAPSHOT_WIDTHS.flatMap((width) => SNAPSHOT_SCHEMES.map((scheme) => ({ width, scheme })));

  constructor(private readonly db: Client) {}

  private wire(row: SnapshotRow & { comparisons: ComparisonRow[] }): StoredSnapshot {
    return toSnapshot(row, row.comparisons[0] ?? null, this.renders);
  }

  async create(scope: TeamScope, id: string, name: string, baseline: Baseline): Promise<StoredSnapshot> {
    try {
      const row = await this.db.snapshot.create({
        data: { id, orgId: scope.orgId, teamId: scope.teamId, name, ...fieldsOf(baseline) },
        include: latestOnly,
      });
      return this.wire(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.conflict(`a snapshot named "${name}" exists in this team`);
      throw err;
    }
  }

  async get(scope: TeamScope, id: string): Promise<StoredSnapshot | null> {
    const row = await this.db.snapshot.findFirst({ where: { id, orgId: scope.orgId, teamId: scope.teamId }, include: latestOnly });
    return row ? this.wire(row) : null;
  }

  async byName(scope: TeamScope, name: string): Promise<StoredSnapshot | null> {
    const row = await this.db.snapshot.findFirst({ where: { name, orgId: scope.orgId, teamId: scope.teamId }, include: latestOnly });
    return row ? this.wire(row) : null;
  }

  async list(scope: TeamScope, filter: { name?: string }, window: { skip: number; take: number }): Promise<Snapshot[]> {
    const rows = await this.db.snapshot.findMany({
      where: { orgId: scope.orgId, teamId: scope.teamId, ...(filter.name !== undefined ? { name: filter.name } : {}) },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      include: latestOnly,
      ...window,
    });
    return rows.map((r) => this.wire(r).wire);
  }

  count(scope: TeamScope, filter: { name?: string }): Promise<number> {
    return this.db.snapshot.count({
      where: { orgId: scope.orgId, teamId: scope.teamId, ...(filter.name !== undefined ? { name: filter.name } : {}) },
    });
  }

  /** Replaces the baseline; returns the snapshot and the folder of the renders it replaced, or null when unknown. */
  async rebaseline(
    scope: TeamScope,
    id: string,
    baseline: Baseline,
    at: Date,
  ): Promise<{ snapshot: StoredSnapshot; oldImagesKey: string } | null> {
    const old = await this.db.snapshot.findFirst({ where: { id, orgId: scope.orgId, teamId: scope.teamId }, select: { imagesKey: true } });
    if (!old) return null;
    // the comparisons were against the old baseline: they go with it
    await this.db.snapshotComparison.deleteMany({ where: { snapshotId: id } });
    const row = await this.db.snapshot.update({ where: { id }, data: { ...fieldsOf(baseline), updatedAt: at }, include: latestOnly });
    return { snapshot: this.wire(row), oldImagesKey: old.imagesKey };
  }

  /** Removes a snapshot (its comparisons cascade); returns the storage folder to remove, or null when unknown. */
  async remove(scope: TeamScope, id: string): Promise<{ name: string } | null> {
    const rows = await this.db.snapshot.findMany({ where: { id, orgId: scope.orgId, teamId: scope.teamId }, select: { name: true } });
    if (rows.length === 0) return null;
    await this.db.snapshot.deleteMany({ where: { id, orgId: scope.orgId, teamId: scope.teamId } });
    return rows[0]!;
  }

  /** Records a comparison and drops the ones beyond the newest `COMPARISONS_KEPT`; returns their storage folders. */
  async addComparison(
    scope: TeamScope,
    snapshotId: string,
    comparison: { id: string; emailId: string; result: Omit<SnapshotComparison, "id" | "created_at">; imagesKey: string; at: Date },
  ): Promise<{ comparison: SnapshotComparison; dropped: string[] }> {
    const owner = await this.db.snapshot.findFirst({
      where: { id: snapshotId, orgId: scope.orgId, teamId: scope.teamId },
      select: { id: true },
    });
    if (!owner) throw errors.notFound("snapshot");
    const row = await this.db.snapshotComparison.create({
      data: {
        id: comparison.id,
        snapshotId,
        emailId: comparison.emailId,
        result: comparison.result,
        imagesKey: comparison.imagesKey,
        createdAt: comparison.at,
      },
    });
    const old = await this.db.snapshotComparison.findMany({
      where: { snapshotId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: COMPARISONS_KEPT,
      select: { id: true, imagesKey: true },
    });
    if (old.length > 0) await this.db.snapshotComparison.deleteMany({ where: { id: { in: old.map((o) => o.id) } } });
    return { comparison: toComparison(row), dropped: old.map((o) => o.imagesKey) };
  }

  /** The storage folder of one comparison of a snapshot of the team, or null. */
  async comparisonImages(scope: TeamScope, snapshotId: string, comparisonId: string): Promise<string | null> {
    const row = await this.db.snapshotComparison.findFirst({
      where: { id: comparisonId, snapshotId, snapshot: { orgId: scope.orgId, teamId: scope.teamId } },
      select: { imagesKey: true },
    });
    return row?.imagesKey ?? null;
  }

  /** Tenant removal: a batch of the tenant's snapshots, removed; their ids (their storage folders go after the commit). */
  async removeBatchOf(scope: OrgScope | TeamScope, size: number): Promise<string[]> {
    const where = "teamId" in scope ? { orgId: scope.orgId, teamId: scope.teamId } : { orgId: scope.orgId };
    const rows = await this.db.snapshot.findMany({ where, select: { id: true }, take: size });
    if (rows.length === 0) return [];
    await this.db.snapshot.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return rows.map((r) => r.id);
  }

  /** A team moved to another org: its snapshots go with it. */
  async moveTeam(scope: TeamScope, toOrgId: string): Promise<void> {
    await this.db.snapshot.updateMany({ where: { orgId: scope.orgId, teamId: scope.teamId }, data: { orgId: toOrgId } });
  }
}

/** The storage folder of everything of one snapshot: baselines and comparisons. */
export const snapshotFolder = (snapshotId: string) => `snapshots/${snapshotId}`;
/** A baseline's renders, a new folder on every re-baseline. */
export const baselineFolder = (snapshotId: string, revision: string) => `${snapshotFolder(snapshotId)}/baseline-${revision}`;
/** Every comparison's renders and diffs. */
export const comparisonsFolder = (snapshotId: string) => `${snapshotFolder(snapshotId)}/comparisons`;
