import { randomUUID } from "node:crypto";
import type { Db } from "./prisma";

/** A pending delivery that is due, before it is claimed. */
export interface DueDelivery {
  id: string;
  webhookId: string;
}

/** A delivery claimed for one attempt, with its webhook as it was at claim time (one round trip for both). */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  event: string;
  body: string;
  /** Counting this one. */
  attempts: number;
  url: string;
  secret: string;
  active: boolean;
  /** The trace the attempt continues (the scheduling span's), null when none was recorded. */
  traceParent: string | null;
}

/** How an attempt ended and what becomes of its delivery. */
export interface AttemptRecord {
  delivery: ClaimedDelivery;
  success: boolean;
  responseStatus: number | null;
  responseTimeMs: number;
  error: string | null;
  /** `pending` is retried at `nextAttemptAt`; a final `failed` raises the webhook's failure_count. */
  outcome: { status: "succeeded" } | { status: "failed" } | { status: "pending"; nextAttemptAt: Date };
  at: Date;
}

/**
 * The delivery worker's queue: the system's own work over every tenant, never reached from a
 * request. Built on the client itself (not a transaction): a claim is one statement, an attempt's
 * record one batch.
 */
export class DeliveryQueue {
  constructor(private readonly db: Db) {}

  /** Pending deliveries due at `now`, oldest due first. */
  due(now: Date, limit: number): Promise<DueDelivery[]> {
    return this.db.delivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: now } },
      orderBy: { nextAttemptAt: "asc" },
      take: limit,
      select: { id: true, webhookId: true },
    });
  }

  /**
   * Claims the deliveries among `ids` that are still pending and due: counts the attempt and
   * pushes next_attempt_at `leaseMs` ahead (a lease: a delivery whose sender died becomes due
   * again). SKIP LOCKED: rows another replica is claiming right now are passed over instead of
   * waited on; the re-checked status/next_attempt_at makes a row claimed a moment ago ineligible.
   */
  claim(ids: string[], leaseMs: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.$queryRaw<ClaimedDelivery[]>`
      UPDATE deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
      FROM (
        SELECT id FROM deliveries
        WHERE id = ANY(${ids}::uuid[]) AND status = 'pending' AND next_attempt_at <= now()
        FOR UPDATE SKIP LOCKED
      ) due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
      RETURNING d.id, d.webhook_id AS "webhookId", d.event, d.body, d.attempts, w.url, w.secret, w.active,
        d.trace_parent AS "traceParent"`;
  }

  /** A claimed delivery whose webhook was deactivated is dropped without an attempt. */
  async cancel(deliveryId: string, at: Date): Promise<void> {
    await this.db.delivery.update({ where: { id: deliveryId }, data: { status: "cancelled", completedAt: at, nextAttemptAt: null } });
  }

  /**
   * One batch for the log row and the schedule; the failure counter only moves on a final failure.
   * Then the webhook's last status, a short statement of its own, skipped when a newer attempt
   * already wrote it, so concurrent deliveries to one webhook do not queue behind each other.
   */
  async record(r: AttemptRecord): Promise<void> {
    const d = r.delivery;
    const schedule =
      r.outcome.status === "pending"
        ? { nextAttemptAt: r.outcome.nextAttemptAt }
        : { status: r.outcome.status, completedAt: r.at, nextAttemptAt: null };
    await this.db.$transaction([
      this.db.deliveryAttempt.create({
        data: {
          id: randomUUID(),
          webhookId: d.webhookId,
          deliveryId: d.id,
          event: d.event,
          attempt: d.attempts,
          success: r.success,
          responseStatus: r.responseStatus,
          responseTimeMs: r.responseTimeMs,
          error: r.error,
          createdAt: r.at,
        },
      }),
      this.db.delivery.update({ where: { id: d.id }, data: schedule }),
      ...(r.outcome.status === "failed"
        ? [this.db.webhook.update({ where: { id: d.webhookId }, data: { failureCount: { increment: 1 } } })]
        : []),
    ]);
    await this.db.webhook.updateMany({
      where: { id: d.webhookId, OR: [{ lastAttemptAt: null }, { lastAttemptAt: { lt: r.at } }] },
      data: { lastStatus: r.responseStatus, lastAttemptAt: r.at },
    });
  }
}
