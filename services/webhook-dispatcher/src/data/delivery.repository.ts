import type { WebhookDeliveryLogEntry } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit";
import type { Db, Prisma, Tx } from "./prisma";

type AttemptRow = Prisma.DeliveryAttemptGetPayload<object>;

export function toLogEntry(a: AttemptRow): WebhookDeliveryLogEntry {
  return {
    id: a.id,
    webhook_id: a.webhookId,
    delivery_id: a.deliveryId,
    event: a.event as WebhookDeliveryLogEntry["event"],
    attempt: a.attempt,
    success: a.success,
    response_status: a.responseStatus,
    response_time_ms: a.responseTimeMs,
    error: a.error,
    created_at: a.createdAt.toISOString(),
  };
}

/** Raw figures over one webhook's delivery log. */
export interface LogFigures {
  attempts: number;
  succeeded: number;
  avgResponseTimeMs: number | null;
  lastAttemptAt: Date | null;
}

/**
 * Deliveries and their log, reached through the team's webhook: every method takes the team, and
 * a webhook of another team matches nothing.
 */
export class DeliveryRepository {
  constructor(private readonly db: Db | Tx) {}

  /** The webhook's log, newest first. */
  async log(scope: TeamScope, webhookId: string, window: { skip: number; take: number }): Promise<WebhookDeliveryLogEntry[]> {
    const rows = await this.db.deliveryAttempt.findMany({
      where: { webhookId, webhook: { orgId: scope.orgId, teamId: scope.teamId } },
      orderBy: [{ createdAt: "desc" }, { attempt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toLogEntry);
  }

  countLog(scope: TeamScope, webhookId: string): Promise<number> {
    return this.db.deliveryAttempt.count({ where: { webhookId, webhook: { orgId: scope.orgId, teamId: scope.teamId } } });
  }

  async logFigures(scope: TeamScope, webhookId: string): Promise<LogFigures> {
    const [row] = await this.db.$queryRaw<Array<{ total: bigint; ok: bigint; avg: number | null; last: Date | null }>>`
      SELECT count(*) AS total, count(*) FILTER (WHERE a.success) AS ok, avg(a.response_time_ms)::float8 AS avg, max(a.created_at) AS last
      FROM delivery_attempts a JOIN webhooks w ON w.id = a.webhook_id
      WHERE a.webhook_id = ${webhookId}::uuid AND w.org_id = ${scope.orgId}::uuid AND w.team_id = ${scope.teamId}::uuid`;
    return {
      attempts: Number(row?.total ?? 0),
      succeeded: Number(row?.ok ?? 0),
      avgResponseTimeMs: row?.avg ?? null,
      lastAttemptAt: row?.last ?? null,
    };
  }
}
