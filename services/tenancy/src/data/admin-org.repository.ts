import { PLATFORM_TTL_DEFAULTS, type AdminOrg } from "@burnbox/contracts";
import { toOrg } from "./org.repository";
import type { Client } from "./prisma";

/** Every org on the platform with its counts, for system admins (GET /admin/orgs); not tenant-scoped on purpose. */
export class AdminOrgRepository {
  constructor(
    private readonly db: Client,
    private readonly platformTtl: () => { default_inbox_ttl: string; max_inbox_ttl: string } = () => PLATFORM_TTL_DEFAULTS,
  ) {}

  private where(q: string | undefined) {
    const term = q?.trim();
    return term ? { OR: [{ name: { contains: term, mode: "insensitive" as const } }, { slug: { contains: term.toLowerCase() } }] } : {};
  }

  async list(q: string | undefined, window: { skip: number; take: number }): Promise<AdminOrg[]> {
    const rows = await this.db.org.findMany({
      where: this.where(q),
      include: { _count: { select: { members: true, teams: true, domains: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(({ _count, ...org }) => ({
      ...toOrg(org, this.platformTtl()),
      member_count: _count.members,
      team_count: _count.teams,
      domain_count: _count.domains,
    }));
  }

  count(q: string | undefined): Promise<number> {
    return this.db.org.count({ where: this.where(q) });
  }
}
