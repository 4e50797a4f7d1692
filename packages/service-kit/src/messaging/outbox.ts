import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import type { JetStreamClient } from "@nats-io/jetstream";
import { headers as natsHeaders, type NatsConnection } from "@nats-io/nats-core";
import { subjects, type DomainEvent, type EventOf, type EventType } from "@burnbox/contracts";
import type { Logger } from "../core/logger";
import { pipeline, watchOutboxBacklog } from "../core/metrics";
import { SpanKind, contextFromHeaders, injectNatsHeaders, traceHeaders, withSpan } from "../telemetry";

/**
 * The trace context of the request that created an outbox row travels inside its payload under
 * this key (the table has no headers column); the relay takes it out again and publishes it as
 * NATS message headers, so consumers see the event exactly as it was created. Absent when
 * tracing is off.
 */
export const OUTBOX_TRACE_KEY = "_trace";

/**
 * Transactional outbox. A service writes the event rows in the same transaction as its change
 * (the unit of work does it), then hands the committed rows to `relay.publishCommitted(rows)`,
 * which publishes them at once, from memory, and marks them published. Every row is published
 * with its event id as the JetStream message id, so a second publish of one (a crash between
 * publish and mark) is dropped by the stream. Rows a writer did not get published (its process
 * died, NATS was away) are found by the relay's passes: every `pollMs` it claims pending rows
 * older than `graceMs` with SKIP LOCKED, so replicas share that work.
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

export type OutboxRow = ReturnType<typeof outboxRow>;

export interface OutboxRelay {
  /**
   * Publishes rows its caller has just committed and marks them published, without reading them
   * back; returns at once. A row whose publish fails stays pending for the passes.
   */
  publishCommitted(rows: readonly OutboxRow[]): void;
  stop(): Promise<void>;
  /** Waits for the rows being published, then publishes everything pending; resolves when done (tests and shutdown). */
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
  /** The periodic pass leaves rows younger than this to the writer publishing them (2 s). */
  graceMs?: number;
  /**
   * A core NATS subject a row's event is published on as well (`subjects().live`), or null for
   * none: published once the stream has acknowledged the event, so whoever gets the copy can
   * find the event in the stream (a resume from its id), and only when the stream stored it now
   * (not a duplicate of an earlier publish), so that a row published again by a pass is not
   * copied twice. A row whose writer's publish failed is copied when a pass of the same process
   * publishes it, even as a duplicate: its first publish may have been stored with its
   * acknowledgement lost (a pass of another replica, not knowing, copies only what the stream
   * newly stored). The copy is core NATS: whoever was away when it went reads the stream.
   */
  live?: { nc: NatsConnection; subjectOf(row: { subject: string; event: unknown }): string | null };
}): OutboxRelay {
  const { pool, js, logger } = opts;
  const pollMs = opts.pollMs ?? 1000;
  const batch = opts.batch ?? 200;
  const graceSeconds = (opts.graceMs ?? 2000) / 1000;
  const direct = new Set<Promise<void>>();
  const toMark: string[] = [];
  let marking: Promise<void> | null = null;
  let running: Promise<number> | null = null;
  let again: number | null = null;
  let stopped = false;
  let lastCleanup = 0;
  /** Ids of rows whose writer's publish failed: their live copy is owed (see `live`); bounded. */
  const liveOwed = new Set<string>();

  /** One row: a `publish` span continuing the trace it was created under, whose context the message headers carry. */
  async function publishRow(row: { id: string; subject: string; payload: unknown }): Promise<void> {
    const { event, trace } = splitTrace(row.payload);
    const h = natsHeaders();
    const publish = async () => {
      const data = JSON.stringify(event);
      const ack = await js.publish(row.subject, data, { msgID: row.id, headers: h, timeout: 5000 });
      const owed = liveOwed.delete(row.id);
      const live = opts.live && (!ack.duplicate || owed) ? opts.live.subjectOf({ subject: row.subject, event }) : null;
      if (!live) return;
      try {
        opts.live?.nc.publish(live, data, { headers: h });
      } catch (err) {
        // the event is in the stream (the row counts as published); only its live copy is lost
        logger.warn({ err, subject: live }, "could not publish an event's live copy");
      }
    };
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

  /**
   * Marks published rows in as few statements as possible: the ids gathered while one runs go in
   * the next. By id alone: with `AND published_at IS NULL` as well, Postgres combined the primary
   * key with the (published_at, created_at) index, whose not-yet-vacuumed entries of rows marked
   * a moment earlier it read on every mark (2.3 million in 10 s of intake load; docs/performance.md).
   * A row a pass marked meanwhile only gets a later time.
   */
  function markPublished(ids: string[]): void {
    toMark.push(...ids);
    marking ??= (async () => {
      try {
        while (toMark.length > 0) {
          const next = toMark.splice(0, 1000);
          // named: prepared once per connection, not parsed and planned at every mark
          await pool.query({
            name: "outbox-mark",
            text: "UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])",
            values: [next],
          });
        }
      } catch (err) {
        // the rows stay pending: a pass publishes them again and the stream drops the duplicates
        toMark.length = 0;
        logger.warn({ err }, "could not mark published outbox rows; a pass will republish them");
      } finally {
        marking = null;
      }
    })();
  }

  /**
   * Publishes `rows` all at once and counts each outcome: the ids published (each with its lag,
   * `lagSeconds`), and a warning for those that failed, which stay pending for a pass (a publish
   * that landed but whose ack was lost is dropped by the stream as a duplicate: the row id is the
   * message id).
   */
  async function publishAll<R extends { id: string; subject: string; payload: unknown }>(
    rows: readonly R[],
    lagSeconds: (row: R) => number,
  ): Promise<string[]> {
    const results = await Promise.allSettled(rows.map((row) => publishRow(row)));
    const published: string[] = [];
    const failed: string[] = [];
    let firstError: unknown;
    results.forEach((result, i) => {
      const row = rows[i] as R;
      if (result.status === "fulfilled") {
        published.push(row.id);
        pipeline.outboxPublished.inc();
        const lag = lagSeconds(row);
        if (Number.isFinite(lag)) pipeline.outboxLag.observe(Math.max(0, lag));
      } else {
        if (failed.length === 0) firstError = result.reason;
        failed.push(row.id);
        pipeline.outboxPublishFailures.inc();
      }
    });
    if (failed.length > 0) {
      logger.warn({ err: firstError, failed: failed.length, event_ids: failed.slice(0, 10) }, "outbox publish failed; a pass will retry");
    }
    return published;
  }

  /** Seconds since the event of `row` occurred (NaN without a readable `occurred_at`). */
  const sinceOccurred = (row: OutboxRow) => {
    const at = row.payload.occurred_at;
    return typeof at === "string" ? (Date.now() - Date.parse(at)) / 1000 : NaN;
  };

  /** Remembers the rows not in `published` as owing their live copy (the oldest forgotten past 10,000). */
  function owe(rows: readonly OutboxRow[], published: readonly string[]): void {
    const done = new Set(published);
    for (const row of rows) if (!done.has(row.id)) liveOwed.add(row.id);
    for (const id of liveOwed) {
      if (liveOwed.size <= 10_000) break;
      liveOwed.delete(id);
    }
  }

  function publishCommitted(rows: readonly OutboxRow[]): void {
    if (rows.length === 0) return;
    const p = publishAll(rows, sinceOccurred)
      .then((published) => {
        if (published.length > 0) markPublished(published);
        if (opts.live && published.length < rows.length) owe(rows, published);
      })
      .finally(() => direct.delete(p));
    direct.add(p);
  }

  /** One claimed batch: how many rows were published, and whether the batch was full (there may be more). */
  async function publishBatch(minAgeSeconds: number): Promise<{ count: number; full: boolean }> {
    const client = await pool.connect();
    try {
      // Marking rows published need not wait for the WAL flush: a mark lost in a database crash
      // only means the rows are published again, and the stream drops those as duplicates (the
      // row id is the message id). Without the wait, back-to-back passes (one per commit under a
      // steady load) no longer queue behind each other's fsync.
      await client.query("BEGIN; SET LOCAL synchronous_commit = off");
      const { rows } = await client.query<{ id: string; subject: string; payload: unknown; lag: number }>(
        `SELECT id, subject, payload, extract(epoch FROM clock_timestamp() - created_at)::float8 AS lag
         FROM outbox_events WHERE published_at IS NULL AND created_at <= clock_timestamp() - make_interval(secs => $2)
         ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch, minAgeSeconds],
      );
      // The whole claimed batch is in flight at once; each row is marked only once its publish is
      // acknowledged, and one whose publish failed stays pending for the next pass.
      const published = await publishAll(rows, (row) => row.lag);
      if (published.length > 0) {
        await client.query("UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])", [published]);
      }
      await client.query("COMMIT");
      return { count: published.length, full: published.length === rows.length && rows.length === batch };
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async function drainAll(minAgeSeconds: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { count, full } = await publishBatch(minAgeSeconds);
      total += count;
      if (!full) break;
    }
    const now = Date.now();
    if (now - lastCleanup > 60_000) {
      lastCleanup = now;
      const retainSeconds = Math.floor((opts.retainMs ?? 3_600_000) / 1000);
      await pool.query(`DELETE FROM outbox_events WHERE published_at < now() - make_interval(secs => $1)`, [retainSeconds]);
    }
    return total;
  }

  /** One pass over the pending rows at least `minAgeSeconds` old; a pass asked for while one runs follows it. */
  function run(minAgeSeconds: number): Promise<number> {
    if (running) {
      again = again === null ? minAgeSeconds : Math.min(again, minAgeSeconds);
      return running;
    }
    running = drainAll(minAgeSeconds)
      .catch((err: unknown) => {
        logger.warn({ err }, "outbox relay pass failed");
        return 0;
      })
      .finally(() => {
        running = null;
        if (again !== null && !stopped) {
          const next = again;
          again = null;
          void run(next);
        }
      });
    return running;
  }

  const unwatch = watchOutboxBacklog(pool);
  // the periodic pass leaves young rows to the writers publishing them
  const timer = setInterval(() => void run(graceSeconds), pollMs);
  void run(0); // at start: what an earlier process left
  const settled = async () => {
    while (direct.size > 0) await Promise.allSettled([...direct]);
    await marking;
  };
  return {
    publishCommitted,
    flush: async () => {
      await settled();
      await running;
      return run(0);
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      unwatch();
      await settled();
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
