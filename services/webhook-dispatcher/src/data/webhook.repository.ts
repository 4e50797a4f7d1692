import type { Webhook, WebhookEvent } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import { isRecordNotFound, type Db, type Prisma, type Tx } from "./prisma";

type WebhookRow = Prisma.WebhookGetPayload<object>;

export function toWebhook(w: WebhookRow): Webhook {
  return {
    id: w.id,
    team_id: w.teamId,
    created_by: w.createdBy,
    url: w.url,
    events: w.events as Webhook["events"],
    active: w.active,
    failure_count: w.failureCount,
    last_status: w.lastStatus,
    last_attempt_at: w.lastAttemptAt?.toISOString() ?? null,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

export interface NewWebhook {
  id: string;
  createdBy: string;
  url: string;
  events: WebhookEvent[];
  /** The signing secret sealed with encryption.key (SecretBox); the clear one is never stored. */
  secretSealed: string;
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: WebhookEvent[] | undefined;
  active?: boolean | undefined;
}

/** The change of webhooks that commits no event, recorded in the transaction for the subscriber caches. */
export const WebhookChange = { teamMoved: "webhooks.team_moved" } as const;

/** A team's webhooks. Every method but the system sweep takes the team. */
export class WebhookRepository {
  /** `changes`: inside `write()`, where a change that commits no event is recorded for the caches (`WebhookChange`). */
  constructor(
    private readonly db: Db | Tx,
    private readonly changes?: ChangeLog,
  ) {}

  async create(scope: TeamScope, fields: NewWebhook): Promise<Webhook> {
    return toWebhook(await this.db.webhook.create({ data: { ...fields, orgId: scope.orgId, teamId: scope.teamId } }));
  }

  async find(scope: TeamScope, id: string): Promise<Webhook | null> {
    const row = await this.db.webhook.findFirst({ where: { id, orgId: scope.orgId, teamId: scope.teamId } });
    return row ? toWebhook(row) : null;
  }

  /** Newest first. */
  async list(scope: TeamScope, window: { skip: number; take: number }): Promise<Webhook[]> {
    const rows = await this.db.webhook.findMany({
      where: { orgId: scope.orgId, teamId: scope.teamId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toWebhook);
  }

  count(scope: TeamScope): Promise<number> {
    return this.db.webhook.count({ where: { orgId: scope.orgId, teamId: scope.teamId } });
  }

  /** Null when the team has no such webhook. */
  async update(scope: TeamScope, id: string, changes: WebhookChanges): Promise<Webhook | null> {
    try {
      const row = await this.db.webhook.update({
        where: { id, orgId: scope.orgId, teamId: scope.teamId },
        data: {
          ...(changes.url !== undefined ? { url: changes.url } : {}),
          ...(changes.events !== undefined ? { events: changes.events } : {}),
          ...(changes.active !== undefined ? { active: changes.active } : {}),
        },
      });
      return toWebhook(row);
    } catch (err) {
      if (isRecordNotFound(err)) return null;
      throw err;
    }
  }

  /** Deletes the webhook with its deliveries and log (cascade); false when the team has no such webhook. */
  async delete(scope: TeamScope, id: string): Promise<boolean> {
    const { count } = await this.db.webhook.deleteMany({ where: { id, orgId: scope.orgId, teamId: scope.teamId } });
    return count > 0;
  }

  /** System sweep over every tenant (the `webhook_retry` worker): clears a failure_count of 1 or 2 on active webhooks. */
  async resetTransientFailures(): Promise<number> {
    const { count } = await this.db.webhook.updateMany({
      where: { active: true, failureCount: { in: [1, 2] } },
      data: { failureCount: 0 },
    });
    return count;
  }

  /** System step at start-up: up to `limit` webhooks still holding their signing secret in clear (rows of the previous release). */
  async plaintextSecrets(limit: number): Promise<Array<{ id: string; secret: string }>> {
    const rows = await this.db.webhook.findMany({ where: { secret: { not: null } }, select: { id: true, secret: true }, take: limit });
    return rows.map((r) => ({ id: r.id, secret: r.secret as string }));
  }

  /**
   * Stores the sealed secret and empties the clear one, only while the row still holds `plain`
   * (another replica sealing it meanwhile, or a rotation, wins). False when it did not.
   */
  async sealSecret(id: string, plain: string, sealed: string): Promise<boolean> {
    const { count } = await this.db.webhook.updateMany({ where: { id, secret: plain }, data: { secretSealed: sealed, secret: null } });
    return count > 0;
  }

  /**
   * Tenant removal (`org.deleted`, `team.deleted`): stops every webhook of the org or team at once,
   * so nothing more is sent for it while its rows go. A team is matched by its id alone (ids are
   * unique), so a removal processed before the team's move still finds it.
   */
  async deactivateAllOf(scope: OrgScope | TeamScope): Promise<number> {
    const { count } = await this.db.webhook.updateMany({ where: tenantWhere(scope), data: { active: false } });
    return count;
  }

  /**
   * Deletes up to `limit` rows of a removed tenant, smallest first: the delivery log, then the
   * deliveries, then the webhooks themselves, so no single transaction cascades through a large log.
   */
  async removeBatchOf(scope: OrgScope | TeamScope, limit: number): Promise<number> {
    const column = "teamId" in scope ? "team_id" : "org_id";
    const id = "teamId" in scope ? scope.teamId : scope.orgId;
    for (const table of ["delivery_attempts", "deliveries"] as const) {
      const n = await this.db.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE id IN (
           SELECT x.id FROM ${table} x JOIN webhooks w ON w.id = x.webhook_id WHERE w.${column} = $1::uuid LIMIT $2)`,
        id,
        limit,
      );
      if (n > 0) return n;
    }
    return this.db.$executeRawUnsafe(
      `DELETE FROM webhooks WHERE id IN (SELECT id FROM webhooks WHERE ${column} = $1::uuid LIMIT $2)`,
      id,
      limit,
    );
  }

  /** Re-files a team's webhooks under the org it was transferred to; returns how many. */
  async moveTeam(scope: TeamScope, toOrgId: string): Promise<number> {
    const { count } = await this.db.webhook.updateMany({ where: { teamId: scope.teamId }, data: { orgId: toOrgId } });
    if (count > 0)
      this.changes?.record({ type: WebhookChange.teamMoved, org_id: scope.orgId, team_id: scope.teamId, data: { to_org_id: toOrgId } });
    return count;
  }
}

const tenantWhere = (scope: OrgScope | TeamScope) => ("teamId" in scope ? { teamId: scope.teamId } : { orgId: scope.orgId });
