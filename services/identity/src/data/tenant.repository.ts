import { lockTenants, type OrgScope, type TeamScope } from "@burnbox/service-kit";
import type { Client } from "./prisma";

/**
 * Orgs and teams tenancy removed, and the locks that order API key creation with their removal
 * (`lockTenants` in the kit). Run the methods inside a transaction: the locks last until it ends.
 */
export class TenantRepository {
  constructor(private readonly db: Client) {}

  /** At create: waits for a removal in progress of the org or team; true when either is removed. */
  async lockForCreate(scope: TeamScope): Promise<boolean> {
    await lockTenants(this.db, [scope.orgId, scope.teamId], "shared");
    return (await this.db.removedTenant.count({ where: { id: { in: [scope.orgId, scope.teamId] } } })) > 0;
  }

  /** Records the removal of an org or team, after every create in flight for it has committed. */
  async markRemoved(tenant: { kind: "org"; scope: OrgScope } | { kind: "team"; scope: TeamScope }): Promise<void> {
    const id = tenant.kind === "org" ? tenant.scope.orgId : tenant.scope.teamId;
    await lockTenants(this.db, [id], "exclusive");
    await this.db.removedTenant.createMany({ data: [{ id, kind: tenant.kind }], skipDuplicates: true });
  }

  /** Waits until no create of the team is in flight (for a move to another org). */
  async lockTeam(scope: TeamScope): Promise<void> {
    await lockTenants(this.db, [scope.teamId], "exclusive");
  }
}
