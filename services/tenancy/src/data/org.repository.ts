import { PLATFORM_TTL_DEFAULTS, type Org } from "@burnbox/contracts";
import type { OrgScope } from "@burnbox/service-kit/data";
import { SlugTakenError } from "../domain/slug";
import { withOrgDefaults } from "../domain/orgs/org-settings";
import { jsonObject, uniqueOr, type Client, type SettingsValues } from "./prisma";
import type { Prisma } from "../generated/prisma";

type OrgRow = Prisma.OrgGetPayload<object>;

export function toOrg(o: OrgRow, platformTtl?: { default_inbox_ttl: string; max_inbox_ttl: string }): Org {
  return {
    id: o.id,
    name: o.name,
    slug: o.slug,
    logo_url: o.logoUrl,
    settings: withOrgDefaults(jsonObject(o.settings), platformTtl),
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

export interface NewOrg {
  name: string;
  slug: string;
  logoUrl: string | null;
  settings: SettingsValues;
  /** The creator, who becomes the org's owner. */
  ownerUserId: string;
}

/** Organizations: the tenants themselves. */
export class OrgRepository {
  constructor(
    private readonly db: Client,
    /** The platform's TTLs, which an org's unset TTL settings read as. */
    private readonly platformTtl: () => { default_inbox_ttl: string; max_inbox_ttl: string } = () => PLATFORM_TTL_DEFAULTS,
  ) {}

  /** Creates the org `scope` names with its owner; a taken slug is a conflict. */
  async create(scope: OrgScope, fields: NewOrg): Promise<Org> {
    const { ownerUserId, ...org } = fields;
    const row = await uniqueOr(
      this.db.org.create({ data: { id: scope.orgId, ...org, members: { create: { userId: ownerUserId, role: "owner" } } } }),
      () => new SlugTakenError("organization slug already taken"),
    );
    return toOrg(row, this.platformTtl());
  }

  async get(scope: OrgScope): Promise<Org | null> {
    const row = await this.db.org.findUnique({ where: { id: scope.orgId } });
    return row ? toOrg(row, this.platformTtl()) : null;
  }

  /** The orgs `userId` belongs to, oldest first, with their role there. */
  async listForUser(userId: string, window: { skip: number; take: number }): Promise<Array<Org & { role: string }>> {
    const rows = await this.db.orgMember.findMany({
      where: { userId },
      include: { org: true },
      orderBy: [{ org: { createdAt: "asc" } }, { orgId: "asc" }],
      ...window,
    });
    return rows.map((m) => ({ ...toOrg(m.org, this.platformTtl()), role: m.role }));
  }

  countForUser(userId: string): Promise<number> {
    return this.db.orgMember.count({ where: { userId } });
  }

  async update(scope: OrgScope, changes: { name?: string; logoUrl?: string | null }): Promise<Org> {
    return toOrg(await this.db.org.update({ where: { id: scope.orgId }, data: changes }), this.platformTtl());
  }

  /** Stores the merged settings (the caller merged and validated them). */
  async saveSettings(scope: OrgScope, settings: SettingsValues): Promise<Org> {
    return toOrg(await this.db.org.update({ where: { id: scope.orgId }, data: { settings } }), this.platformTtl());
  }

  /** The org with everything in it (members, teams, domains, assignments cascade). */
  async delete(scope: OrgScope): Promise<void> {
    await this.db.org.deleteMany({ where: { id: scope.orgId } });
  }

  /**
   * Locks the org's row until the transaction ends: creates counted against a quota of the org
   * (teams, domains) run one after the other, so two at the limit cannot both pass.
   */
  async lockForQuota(scope: OrgScope): Promise<void> {
    await this.db.$queryRaw`SELECT id FROM orgs WHERE id = ${scope.orgId}::uuid FOR UPDATE`;
  }

  async exists(scope: OrgScope): Promise<boolean> {
    return (await this.db.org.findUnique({ where: { id: scope.orgId }, select: { id: true } })) !== null;
  }
}
