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
    return this.db.$queryRaw<DueDelivery[]>`
      SELECT id::text, webhook_id::text AS "webhookId" FROM deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at ASC LIMIT ${limit}`;
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
   * One statement for the whole record (raw: it runs for every attempt, where Prisma's batch of
   * three cost more than the work): the log row, the delivery's schedule, and the webhook's last
   * status and failure counter. The webhook row is touched only when this attempt is its newest or
   * a final failure, so concurrent deliveries to one webhook rarely wait on each other.
   */
  async record(r: AttemptRecord): Promise<void> {
    const d = r.delivery;
    const pending = r.outcome.status === "pending";
    const nextAttemptAt = r.outcome.status === "pending" ? r.outcome.nextAttemptAt : null;
    const failed = r.outcome.status === "failed";
    await this.db.$executeRaw`
      WITH attempt AS (
        INSERT INTO delivery_attempts (id, webhook_id, delivery_id, event, attempt, success, response_status, response_time_ms, error, created_at)
        VALUES (${randomUUID()}::uuid, ${d.webhookId}::uuid, ${d.id}::uuid, ${d.event}, ${d.attempts}, ${r.success},
          ${r.responseStatus}::int, ${r.responseTimeMs}::int, ${r.error}, ${r.at})
      ), schedule AS (
        UPDATE deliveries SET
          status = CASE WHEN ${pending} THEN status ELSE ${r.outcome.status} END,
          completed_at = CASE WHEN ${pending} THEN completed_at ELSE ${r.at}::timestamptz END,
          next_attempt_at = ${nextAttemptAt}::timestamptz
        WHERE id = ${d.id}::uuid
      )
      UPDATE webhooks SET
        failure_count = failure_count + CASE WHEN ${failed} THEN 1 ELSE 0 END,
        last_status = CASE WHEN last_attempt_at IS NULL OR last_attempt_at < ${r.at} THEN ${r.responseStatus}::int ELSE last_status END,
        last_attempt_at = GREATEST(last_attempt_at, ${r.at}::timestamptz)
      WHERE id = ${d.webhookId}::uuid AND (${failed} OR last_attempt_at IS NULL OR last_attempt_at < ${r.at})`;
  }
}
