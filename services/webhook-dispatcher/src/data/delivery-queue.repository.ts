import { randomUUID } from "node:crypto";
import { EventType, WEBHOOK_EVENTS, type WebhookEvent } from "@burnbox/contracts";
import { HotRepository, startGroupCommit, type PgPool, type TeamScope } from "@burnbox/service-kit/data";
import { changeCache, type BroadcastCache, type Change, type ChangeBroadcasts, type Invalidations } from "@burnbox/service-kit/messaging";
import { WebhookChange } from "./webhook.repository";

/** The subscriber cache's key: a team (under an org) and an event type. */
const subscriberKey = (orgId: string | null, teamId: string | null, type: string) => `${orgId}|${teamId}|${type}`;

/** Every kept subscriber list of the change's team (under each org named). */
const teamKeys = (c: Change, orgIds: Array<string | null>) =>
  orgIds.flatMap((orgId) => WEBHOOK_EVENTS.map((type) => subscriberKey(orgId, c.team_id, type)));

/**
 * The changes after which kept subscribers may be wrong: a webhook created, changed or deleted
 * (each audited: its team's lists go; one without a team, all), a team's webhooks moved to
 * another org (its lists under both orgs go).
 */
export const SUBSCRIBER_CHANGES: Invalidations = {
  [EventType.auditRecorded]: (c) => {
    const action = String((c.data as { action?: unknown }).action);
    if (!action.startsWith("webhook.")) return null;
    return c.team_id ? teamKeys(c, [c.org_id]) : "all";
  },
  [WebhookChange.teamMoved]: (c) => teamKeys(c, [c.org_id, String((c.data as { to_org_id?: unknown }).to_org_id)]),
};

/** A delivery to schedule: its id, the webhook it goes to and the exact body it will carry. */
export interface NewDelivery {
  id: string;
  webhookId: string;
  body: string;
}

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
  /** The webhook's signing secret sealed with encryption.key; null only for a row not sealed yet. */
  secretSealed: string | null;
  /** The secret in clear of a row of the previous release that could not be sealed yet (no key configured). */
  legacySecret: string | null;
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
 * The deliveries queue, on the service's pg pool (not Prisma: every statement here runs once or
 * more per delivery, and the ORM's runtime cost more than the statements). Scheduling takes the
 * team's scope; the worker's side (due, claim, cancel, record) is the system's own work over every
 * tenant, never reached from a request. Each method is one statement, so none needs a transaction.
 */
export class DeliveryQueue extends HotRepository {
  /**
   * Each team's subscribers of an event type, kept for at most a second and dropped by every
   * replica on the commits `SUBSCRIBER_CHANGES` names (broadcast by the unit of work), so an
   * event of a team without webhooks (most of them) costs no statement. Kept only while the
   * broadcast's subscription is live. A subscriber kept after it was disabled or moved is harmless:
   * `schedule` writes a delivery only for a webhook that is still an active subscriber of the team.
   */
  private readonly subscriberCache: BroadcastCache<string[]> | null;

  /** With `broadcasts` (the service's NATS connection and namespace), subscribers are cached as above (`maxAgeMs`: 1000). */
  constructor(
    private readonly pool: PgPool,
    broadcasts?: ChangeBroadcasts,
  ) {
    super();
    this.subscriberCache = changeCache(broadcasts, SUBSCRIBER_CHANGES);
  }

  /** The subscriber reads asked while one is in flight, answered together by the next statement. */
  private readonly reads = startGroupCommit<{ scope: TeamScope; type: WebhookEvent }, string[]>({
    write: (batch) => this.subscribersOf(batch),
    maxBatch: 128,
  });

  /** The active webhooks of the team subscribed to `type` (most teams have none): cached, else one indexed read shared with concurrent ones. */
  subscribers(scope: TeamScope, type: WebhookEvent): Promise<string[]> {
    const read = () => this.reads.submit({ scope, type });
    return this.subscriberCache ? this.subscriberCache.get(subscriberKey(scope.orgId, scope.teamId, type), read) : read();
  }

  private async subscribersOf(batch: Array<{ scope: TeamScope; type: WebhookEvent }>): Promise<string[][]> {
    const { rows } = await this.pool.query<{ i: string; id: string }>(
      `SELECT q.i::text AS i, w.id::text AS id
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) WITH ORDINALITY AS q(team_id, org_id, type, i)
       JOIN webhooks w ON w.team_id = q.team_id AND w.org_id = q.org_id AND w.active AND q.type = ANY(w.events)`,
      [batch.map((b) => b.scope.teamId), batch.map((b) => b.scope.orgId), batch.map((b) => b.type)],
    );
    const found: string[][] = batch.map(() => []);
    for (const r of rows) found[Number(r.i) - 1]?.push(r.id);
    return found;
  }

  /**
   * Claims the event for `consumer` and schedules `deliveries`, due at `at`, in one statement
   * (atomic without a transaction): nothing is scheduled when the consumer handled the event
   * before (a redelivery), and a delivery is written only while its webhook is still an active
   * subscriber of the team; one already scheduled for the same webhook and event is skipped.
   * Returns how many were scheduled.
   */
  async schedule(
    scope: TeamScope,
    input: { consumer: string; event: { id: string; type: WebhookEvent }; at: Date; traceParent: string | null; deliveries: NewDelivery[] },
  ): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `WITH claimed AS (
         INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING RETURNING 1
       ), inserted AS (
         INSERT INTO deliveries (id, webhook_id, event_id, event, body, next_attempt_at, trace_parent)
         SELECT n.id, n.webhook_id, $2::uuid, $3, n.body, $4::timestamptz, $5
         FROM unnest($6::uuid[], $7::uuid[], $8::text[]) AS n(id, webhook_id, body)
         JOIN webhooks w ON w.id = n.webhook_id
         WHERE EXISTS (SELECT 1 FROM claimed)
           AND w.team_id = $9::uuid AND w.org_id = $10::uuid AND w.active AND $3 = ANY(w.events)
         ON CONFLICT (webhook_id, event_id) DO NOTHING
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM inserted`,
      [
        input.consumer,
        input.event.id,
        input.event.type,
        input.at,
        input.traceParent,
        input.deliveries.map((d) => d.id),
        input.deliveries.map((d) => d.webhookId),
        input.deliveries.map((d) => d.body),
        scope.teamId,
        scope.orgId,
      ],
    );
    return rows[0]?.n ?? 0;
  }

  /** Pending deliveries due at `now`, oldest due first. */
  async due(now: Date, limit: number): Promise<DueDelivery[]> {
    const { rows } = await this.pool.query<DueDelivery>(
      `SELECT id::text, webhook_id::text AS "webhookId" FROM deliveries
       WHERE status = 'pending' AND next_attempt_at <= $1
       ORDER BY next_attempt_at ASC LIMIT $2`,
      [now, limit],
    );
    return rows;
  }

  /**
   * Claims the deliveries among `ids` that are still pending and due: counts the attempt and
   * pushes next_attempt_at `leaseMs` ahead (a lease: a delivery whose sender died becomes due
   * again). SKIP LOCKED: rows another replica is claiming right now are passed over instead of
   * waited on; the re-checked status/next_attempt_at makes a row claimed a moment ago ineligible.
   */
  async claim(ids: string[], leaseMs: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<ClaimedDelivery>(
      `UPDATE deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
       FROM (
         SELECT id FROM deliveries
         WHERE id = ANY($1::uuid[]) AND status = 'pending' AND next_attempt_at <= now()
         FOR UPDATE SKIP LOCKED
       ) due, webhooks w
       WHERE d.id = due.id AND w.id = d.webhook_id
       RETURNING d.id::text, d.webhook_id::text AS "webhookId", d.event, d.body, d.attempts, w.url,
         w.secret_sealed AS "secretSealed", w.secret AS "legacySecret", w.active,
         d.trace_parent AS "traceParent"`,
      [ids, leaseMs / 1000],
    );
    return rows;
  }

  /** A claimed delivery whose webhook was deactivated is dropped without an attempt. */
  async cancel(deliveryId: string, at: Date): Promise<void> {
    await this.pool.query(`UPDATE deliveries SET status = 'cancelled', completed_at = $2, next_attempt_at = NULL WHERE id = $1::uuid`, [
      deliveryId,
      at,
    ]);
  }

  /**
   * One statement for the whole record: the log row, the delivery's schedule, and the webhook's
   * last status and failure counter. The webhook row is touched only when this attempt is its
   * newest or a final failure, so concurrent deliveries to one webhook rarely wait on each other.
   */
  async record(r: AttemptRecord): Promise<void> {
    const d = r.delivery;
    const pending = r.outcome.status === "pending";
    const nextAttemptAt = r.outcome.status === "pending" ? r.outcome.nextAttemptAt : null;
    const failed = r.outcome.status === "failed";
    await this.pool.query(
      `WITH attempt AS (
         INSERT INTO delivery_attempts (id, webhook_id, delivery_id, event, attempt, success, response_status, response_time_ms, error, created_at)
         VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::int, $6::boolean, $7::int, $8::int, $9, $10::timestamptz)
       ), schedule AS (
         UPDATE deliveries SET
           status = CASE WHEN $11::boolean THEN status ELSE $12 END,
           completed_at = CASE WHEN $11::boolean THEN completed_at ELSE $10::timestamptz END,
           next_attempt_at = $13::timestamptz
         WHERE id = $3::uuid
       )
       UPDATE webhooks SET
         failure_count = failure_count + CASE WHEN $14::boolean THEN 1 ELSE 0 END,
         last_status = CASE WHEN last_attempt_at IS NULL OR last_attempt_at < $10::timestamptz THEN $7::int ELSE last_status END,
         last_attempt_at = GREATEST(last_attempt_at, $10::timestamptz)
       WHERE id = $2::uuid AND ($14::boolean OR last_attempt_at IS NULL OR last_attempt_at < $10::timestamptz)`,
      [
        randomUUID(),
        d.webhookId,
        d.id,
        d.event,
        d.attempts,
        r.success,
        r.responseStatus,
        r.responseTimeMs,
        r.error,
        r.at,
        pending,
        r.outcome.status,
        nextAttemptAt,
        failed,
      ],
    );
  }
}
