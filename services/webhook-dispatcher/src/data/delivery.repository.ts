import type { WebhookDeliveryLogEntry } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
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

/** What a redelivery found: the delivery as it was, and whether it was queued again. */
export interface RedeliveryResult {
  /** The delivery's status before: pending (its series in flight), succeeded, failed or cancelled. */
  status: string;
  webhookActive: boolean;
  queued: boolean;
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

  /**
   * Queues the team's delivery again, due `at`, as a new series (attempts from 1), keeping its
   * id, body and trace: done only when its series has ended (not pending) and its webhook is
   * active. One statement, the delivery's row locked while it is read, so two redeliveries at
   * once queue it once. Null when the webhook has no such delivery (or is another team's).
   */
  async redeliver(scope: TeamScope, webhookId: string, deliveryId: string, at: Date): Promise<RedeliveryResult | null> {
    const [row] = await this.db.$queryRaw<Array<{ status: string; active: boolean; queued: boolean }>>`
      WITH target AS (
        SELECT d.id, d.status, w.active FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.id = ${deliveryId}::uuid AND d.webhook_id = ${webhookId}::uuid
          AND w.org_id = ${scope.orgId}::uuid AND w.team_id = ${scope.teamId}::uuid
        FOR UPDATE OF d
      ), queued AS (
        UPDATE deliveries d SET status = 'pending', attempts = 0, next_attempt_at = ${at}::timestamptz, completed_at = NULL
        FROM target t WHERE d.id = t.id AND t.status <> 'pending' AND t.active
        RETURNING d.id
      )
      SELECT t.status, t.active, EXISTS (SELECT 1 FROM queued) AS queued FROM target t`;
    return row ? { status: row.status, webhookActive: row.active, queued: row.queued } : null;
  }
}
