import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import type { JetStreamClient } from "@nats-io/jetstream";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { subjects, type DomainEvent, type EventOf, type EventType } from "@burnbox/contracts";
import type { Logger } from "./logger";

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
  return {
    id: event.id,
    subject: subjects(namespace).event(event.type),
    payload: JSON.parse(JSON.stringify(event)) as { [key: string]: JsonValue },
  };
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

  async function publishBatch(): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ id: string; subject: string; payload: unknown }>(
        `SELECT id, subject, payload FROM outbox_events WHERE published_at IS NULL
         ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      const published: string[] = [];
      for (const row of rows) {
        const h = natsHeaders();
        try {
          await js.publish(row.subject, JSON.stringify(row.payload), { msgID: row.id, headers: h, timeout: 5000 });
          published.push(row.id);
        } catch (err) {
          logger.warn({ err, event_id: row.id }, "outbox publish failed; will retry");
          break; // keep order; retry on the next pass
        }
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
      await running;
    },
  };
}

/** An `audit.recorded` event for a state change made by `actor` (null for the system). */
export function auditEvent(opts: {
  action: string;
  actor: { user_id: string; api_key: { id: string } | null } | null;
  org_id: string | null;
  team_id?: string | null;
  target_type: string;
  target_id: string | null;
  ip?: string | null;
  metadata?: Record<string, unknown>;
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
    },
  });
}
