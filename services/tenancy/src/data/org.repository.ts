import type { Org } from "@burnbox/contracts";
import { errors, type OrgScope } from "@burnbox/service-kit";
import { withOrgDefaults } from "../domain/orgs/org-settings";
import { jsonObject, uniqueOr, type Client, type SettingsValues } from "./prisma";
import type { Prisma } from "../generated/prisma";

type OrgRow = Prisma.OrgGetPayload<object>;

function toOrg(o: OrgRow): Org {
  return {
    id: o.id,
    name: o.name,
    slug: o.slug,
    logo_url: o.logoUrl,
    settings: withOrgDefaults(jsonObject(o.settings)),
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
  constructor(private readonly db: Client) {}

  /** Creates the org `scope` names with its owner; a taken slug is a conflict. */
  async create(scope: OrgScope, fields: NewOrg): Promise<Org> {
    const { ownerUserId, ...org } = fields;
    const row = await uniqueOr(
      this.db.org.create({ data: { id: scope.orgId, ...org, members: { create: { userId: ownerUserId, role: "owner" } } } }),
      () => errors.conflict("organization slug already taken"),
    );
    return toOrg(row);
  }

  async get(scope: OrgScope): Promise<Org | null> {
    const row = await this.db.org.findUnique({ where: { id: scope.orgId } });
    return row ? toOrg(row) : null;
  }

  async exists(scope: OrgScope): Promise<boolean> {
    return (await this.db.org.findUnique({ where: { id: scope.orgId }, select: { id: true } })) !== null;
  }
}
