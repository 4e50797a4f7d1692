import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import type { JetStreamClient } from "@nats-io/jetstream";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { subjects, type DomainEvent, type EventOf, type EventType } from "@burnbox/contracts";
import type { Logger } from "./logger";
import { pipeline, watchOutboxBacklog } from "./metrics";
import { SpanKind, contextFromHeaders, injectNatsHeaders, traceHeaders, withSpan } from "./telemetry";

/**
 * The trace context of the request that created an outbox row travels inside its payload under
 * this key (the table has no headers column); the relay takes it out again and publishes it as
 * NATS message headers, so consumers see the event exactly as it was created. Absent when
 * tracing is off.
 */
export const OUTBOX_TRACE_KEY = "_trace";

/**
 * Transactional outbox. A service writes the event row in the same transaction as its change
 * (`tx.outboxEvent.create({ data: outboxRow(ns, event) })`, model snippet in
 * docs/service-kit.md), then calls `relay.kick()` after commit. The relay publishes pending
 * rows with the event id as JetStream message id, so a crash between publish and mark is
 * deduplicated by the stream, and rows are claimed with SKIP LOCKED so replicas share the work.
 */
export function newEvent<T extends EventType>(
  type: T,
  fields: { org_id: string | null; team_id: string | null; data: EventOf<T>["data"] },
): EventOf<T> {
  return { id: randomUUID(), type, version: 1, occurred_at: new Date().toISOString(), ...fields } as unknown as EventOf<T>;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The row to insert into `outbox_events`; the payload is plain JSON so any ORM's Json column takes it. */
export function outboxRow(namespace: string, event: DomainEvent): { id: string; subject: string; payload: { [key: string]: JsonValue } } {
  const payload = JSON.parse(JSON.stringify(event)) as { [key: string]: JsonValue };
  const trace = traceHeaders();
  if (trace.traceparent) payload[OUTBOX_TRACE_KEY] = trace;
  return { id: event.id, subject: subjects(namespace).event(event.type), payload };
}

/** Splits a stored payload into the event and the trace headers it was created under. */
function splitTrace(payload: unknown): { event: unknown; trace: Record<string, unknown> | undefined } {
  if (payload === null || typeof payload !== "object" || !(OUTBOX_TRACE_KEY in payload)) return { event: payload, trace: undefined };
  const { [OUTBOX_TRACE_KEY]: trace, ...event } = payload as Record<string, unknown>;
  return { event, trace: trace && typeof trace === "object" ? (trace as Record<string, unknown>) : undefined };
}

export interface OutboxRelay {
  kick(): void;
  stop(): Promise<void>;
  /** Publishes everything pending now; resolves when done (tests and shutdown). */
  flush(): Promise<number>;
}

export function startOutboxRelay(opts: {
  pool: Pool;
  js: JetStreamClient;
  logger: Logger;
  pollMs?: number;
  batch?: number;
  /** Published rows older than this are deleted. */
  retainMs?: number;
}): OutboxRelay {
  const { pool, js, logger } = opts;
  const pollMs = opts.pollMs ?? 1000;
  const batch = opts.batch ?? 200;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let lastCleanup = 0;

  /** One row: a `publish` span continuing the trace it was created under, whose context the message headers carry. */
  async function publishRow(row: { id: string; subject: string; payload: unknown }): Promise<void> {
    const { event, trace } = splitTrace(row.payload);
    const h = natsHeaders();
    const publish = () => js.publish(row.subject, JSON.stringify(event), { msgID: row.id, headers: h, timeout: 5000 });
    if (!trace) {
      await publish();
      return;
    }
    await withSpan(
      `${row.subject} publish`,
      {
        kind: SpanKind.PRODUCER,
        parent: contextFromHeaders(trace),
        attributes: { "messaging.system": "nats", "messaging.destination.name": row.subject, "messaging.message.id": row.id },
      },
      async () => {
        injectNatsHeaders(h);
        await publish();
      },
    );
  }

  async function publishBatch(): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ id: string; subject: string; payload: unknown; lag: number }>(
        `SELECT id, subject, payload, extract(epoch FROM clock_timestamp() - created_at)::float8 AS lag
         FROM outbox_events WHERE published_at IS NULL
         ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      // The whole claimed batch is in flight at once; each row is marked only once its publish is
      // acknowledged. A row whose publish failed stays pending for the next pass (its id is the
      // message id, so a publish that did land but whose ack was lost is dropped as a duplicate).
      const results = await Promise.allSettled(rows.map((row) => publishRow(row)));
      const published: string[] = [];
      const failed: string[] = [];
      let firstError: unknown;
      results.forEach((result, i) => {
        const row = rows[i] as (typeof rows)[number];
        if (result.status === "fulfilled") {
          published.push(row.id);
          pipeline.outboxPublished.inc();
          pipeline.outboxLag.observe(Math.max(0, row.lag));
        } else {
          if (failed.length === 0) firstError = result.reason;
          failed.push(row.id);
          pipeline.outboxPublishFailures.inc();
        }
      });
      if (failed.length > 0) {
        logger.warn({ err: firstError, failed: failed.length, event_ids: failed.slice(0, 10) }, "outbox publish failed; will retry");
      }
      if (published.length > 0) {
        await client.query("UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])", [published]);
      }
      await client.query("COMMIT");
      return published.length === rows.length && rows.length === batch ? -published.length : published.length;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async function drainAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await publishBatch();
      total += Math.abs(n);
      if (n >= 0) break; // a full batch (negative) means there may be more
    }
    const now = Date.now();
    if (now - lastCleanup > 60_000) {
      lastCleanup = now;
      const retainSeconds = Math.floor((opts.retainMs ?? 3_600_000) / 1000);
      await pool.query(`DELETE FROM outbox_events WHERE published_at < now() - make_interval(secs => $1)`, [retainSeconds]);
    }
    return total;
  }

  function run(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drainAll()
      .catch((err: unknown) => {
        logger.warn({ err }, "outbox relay pass failed");
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  }

  const unwatch = watchOutboxBacklog(pool);
  const timer = setInterval(() => void run(), pollMs);
  void run();
  return {
    kick: () => void run(),
    flush: async () => {
      await running;
      return run();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      unwatch();
      await running;
    },
  };
}

/** An `audit.recorded` event for a state change made by `actor` (null for the system). */
export function auditEvent(opts: {
  action: string;
  actor: { user_id: string; email?: string; api_key: { id: string } | null } | null;
  org_id: string | null;
  team_id?: string | null;
  target_type: string;
  target_id: string | null;
  ip?: string | null;
  metadata?: Record<string, unknown>;
  user_agent?: string;
  target_name?: string;
  severity?: "info" | "warning" | "critical";
}) {
  return newEvent("audit.recorded", {
    org_id: opts.org_id,
    team_id: opts.team_id ?? null,
    data: {
      action: opts.action,
      actor_user_id: opts.actor?.user_id ?? null,
      actor_api_key_id: opts.actor?.api_key?.id ?? null,
      target_type: opts.target_type,
      target_id: opts.target_id,
      ip_address: opts.ip ?? null,
      metadata: opts.metadata ?? {},
      ...(opts.actor?.email ? { actor_email: opts.actor.email } : {}),
      ...(opts.user_agent ? { user_agent: opts.user_agent } : {}),
      ...(opts.target_name ? { target_name: opts.target_name } : {}),
      ...(opts.severity ? { severity: opts.severity } : {}),
    },
  });
}
