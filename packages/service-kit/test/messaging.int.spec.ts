import path from "node:path";
import { randomUUID } from "node:crypto";
import { Client, type Pool } from "pg";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import { subjects, type DomainEvent } from "@burnbox/contracts";
import { deleteNamespaceStreams, testDatabaseUrl, testInfra, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import { claimEvent, prepareDatabase, ProcessedEventRepository, runMigrations } from "../src/data";
import {
  connectNats,
  ensureStreams,
  jetstreamManager,
  newEvent,
  outboxRow,
  rpcRequest,
  serveRpc,
  startConsumer,
  startOutboxRelay,
} from "../src/messaging";
import { createLogger, pipeline, TransientError } from "../src/runtime";

const logger = createLogger({ service: "kit-test", level: "silent" });
const MIGRATIONS = path.join(__dirname, "fixtures", "migrations");
const TEAM = randomUUID();

const inboxCreated = () =>
  newEvent("inbox.created", {
    org_id: randomUUID(),
    team_id: TEAM,
    data: { inbox_id: randomUUID(), team_id: TEAM, address: "a", full_address: "a@x.test", expires_at: new Date().toISOString() },
  });

/** Writes the change and its event in one transaction, as services do; returns the committed outbox row. */
async function writeWithEvent(pool: Pool, ns: string, event: DomainEvent): Promise<ReturnType<typeof outboxRow>> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    await c.query("INSERT INTO widgets (id, name) VALUES ($1, $2)", [randomUUID(), "w"]);
    const row = outboxRow(ns, event);
    await c.query("INSERT INTO outbox_events (id, subject, payload) VALUES ($1, $2, $3)", [
      row.id,
      row.subject,
      JSON.stringify(row.payload),
    ]);
    await c.query("COMMIT");
    return row;
  } finally {
    c.release();
  }
}

/** The raw-statement shape of a Prisma client (what claimEvent and the repository need), over a plain pg pool. */
const rawTx = (pool: Pool) => ({
  $executeRawUnsafe: async (q: string, ...values: unknown[]) => (await pool.query(q, values)).rowCount ?? 0,
  $queryRawUnsafe: async <T>(q: string, ...values: unknown[]) => (await pool.query(q, values)).rows as T,
});

describe("service-kit messaging on real Postgres and NATS", () => {
  const dbName = `bbtest_kit_${uniqueNamespace("")}`;
  const url = testDatabaseUrl(dbName);
  let pool: Pool;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let ns: string;

  beforeAll(async () => {
    pool = await prepareDatabase(url, MIGRATIONS, logger);
    nc = await connectNats(testInfra.natsUrl, "kit-test");
    js = jetstream(nc);
  });

  const namespaces: string[] = [];
  beforeEach(async () => {
    ns = uniqueNamespace();
    namespaces.push(ns);
    await ensureStreams(nc, ns);
  });

  afterAll(async () => {
    await pool.end();
    for (const n of namespaces) await deleteNamespaceStreams(nc, n);
    await nc.drain();
    const admin = new Client({ connectionString: testDatabaseUrl("postgres") });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });

  /** A durable consumer (shared by nothing else) of this namespace's inbox.created events. */
  const consumeInboxCreated = (durable: string, handler: (event: { id: string }) => Promise<void>) =>
    startConsumer({ nc, namespace: ns, durable, eventType: "inbox.created", logger, handler });

  it("when migrations run twice (as two replicas would), then each is applied once", async () => {
    expect(await runMigrations(url, MIGRATIONS, logger)).toEqual([]);
    const { rows } = await pool.query("SELECT name FROM _bb_migrations");
    expect(rows).toEqual([{ name: "0001_init" }]);
  });

  it("when an event is committed with its change, then the relay publishes it and a durable consumer receives it once", async () => {
    const received: string[] = [];
    const consumer = await consumeInboxCreated("kit-test", async (event) => {
      if (await claimEvent(rawTx(pool), `kit-test-${ns}`, event.id)) received.push(event.id);
    });
    const relay = startOutboxRelay({ pool, js, logger, pollMs: 100 });
    const event = inboxCreated();
    await writeWithEvent(pool, ns, event);
    await relay.flush(); // a pass over every pending row, whatever its age
    await waitFor(() => received.length === 1, { what: "event delivery" });
    // A relay that crashed after publishing but before marking would publish again: the stream drops the duplicate.
    await js.publish(subjects(ns).event("inbox.created"), JSON.stringify(event), { msgID: event.id });
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([event.id]);
    const { rows } = await pool.query("SELECT published_at FROM outbox_events WHERE id = $1", [event.id]);
    expect(rows[0].published_at).not.toBeNull();
    await relay.stop();
    await consumer.stop();
  });

  it("when a consumer stops with acks still waiting to go together, then it sends them: nothing is left to redeliver", async () => {
    const received: string[] = [];
    const consumer = await consumeInboxCreated("kit-acks", async (event) => {
      received.push(event.id);
    });
    const events = [inboxCreated(), inboxCreated(), inboxCreated()];
    for (const e of events) await js.publish(subjects(ns).event("inbox.created"), JSON.stringify(e), { msgID: e.id });
    await waitFor(() => received.length === events.length, { what: "the events to be handled" });
    await consumer.stop();
    // asked at once: an ack still waiting for its batch's turn would show as pending here
    const info = await (await jetstreamManager(nc)).consumers.info(subjects(ns).stream, "kit-acks");
    expect(info.num_ack_pending).toBe(0);
    expect(info.ack_floor.stream_seq).toBe(info.delivered.stream_seq);
    expect(received).toEqual(events.map((e) => e.id));
  });

  it("when NATS redelivers an event already handled, then claimEvent makes the handler a no-op", async () => {
    const event = inboxCreated();
    expect(await claimEvent(rawTx(pool), "c1", event.id)).toBe(true);
    expect(await claimEvent(rawTx(pool), "c1", event.id)).toBe(false);
    expect(await claimEvent(rawTx(pool), "c2", event.id)).toBe(true);
  });

  it("when a consumer claims an event, then the repository has it seen for that consumer only, and a second claim is refused", async () => {
    const repo = new ProcessedEventRepository(rawTx(pool));
    const event = inboxCreated();
    expect(await repo.seen("r1", event.id)).toBe(false);
    expect(await repo.claim("r1", event.id)).toBe(true);
    expect(await repo.seen("r1", event.id)).toBe(true);
    expect(await repo.seen("r2", event.id)).toBe(false);
    expect(await repo.claim("r1", event.id)).toBe(false);
    const { rows } = await pool.query("SELECT consumer FROM processed_events WHERE event_id = $1::uuid", [event.id]);
    expect(rows).toEqual([{ consumer: "r1" }]);
  });

  it("when a handler fails transiently, then the event is redelivered and handled", async () => {
    let attempts = 0;
    const done: string[] = [];
    const consumer = await consumeInboxCreated("flaky", async (event) => {
      attempts++;
      if (attempts < 3) throw new TransientError("not yet", 50);
      done.push(event.id);
    });
    const event = inboxCreated();
    await js.publish(subjects(ns).event("inbox.created"), JSON.stringify(event), { msgID: event.id });
    await waitFor(() => done.length === 1, { what: "retried delivery" });
    expect(attempts).toBe(3);
    await consumer.stop();
  });

  it("when a payload fails its schema, then it is dead-lettered instead of retried forever", async () => {
    let calls = 0;
    const consumer = await consumeInboxCreated("strict", async () => void calls++);
    await js.publish(subjects(ns).event("inbox.created"), JSON.stringify({ hello: "world" }));
    const dlq = await (await import("@nats-io/jetstream")).jetstreamManager(nc);
    await waitFor(async () => (await dlq.streams.info(subjects(ns).dlqStream)).state.messages === 1, { what: "dead letter" });
    expect(calls).toBe(0);
    await consumer.stop();
  });

  it("when a consumer checks a projection (schema), then its handler gets that part, and a payload failing it is dead-lettered", async () => {
    const { InboxCreatedEvent } = await import("@burnbox/contracts");
    const Projection = InboxCreatedEvent.pick({ id: true, type: true, org_id: true });
    const seen: unknown[] = [];
    const consumer = await startConsumer({
      nc,
      namespace: ns,
      durable: "projected",
      eventType: "inbox.created",
      logger,
      schema: Projection,
      handler: async (event) => void seen.push(event),
    });
    const event = inboxCreated();
    await js.publish(subjects(ns).event("inbox.created"), JSON.stringify(event), { msgID: event.id });
    await waitFor(() => seen.length === 1, { what: "projected event" });
    expect(seen[0]).toEqual({ id: event.id, type: "inbox.created", org_id: event.org_id });
    const dlq = await (await import("@nats-io/jetstream")).jetstreamManager(nc);
    const before = (await dlq.streams.info(subjects(ns).dlqStream)).state.messages;
    await js.publish(subjects(ns).event("inbox.created"), JSON.stringify({ ...inboxCreated(), id: "not-a-uuid" }));
    await waitFor(async () => (await dlq.streams.info(subjects(ns).dlqStream)).state.messages === before + 1, { what: "dead letter" });
    expect(seen).toHaveLength(1);
    await consumer.stop();
  });

  it("when wanted answers false (even later, as a promise), then the message is skipped as handled; a rejection counts as wanted", async () => {
    const handled: string[] = [];
    const consumer = await startConsumer({
      nc,
      namespace: ns,
      durable: "wanted-async",
      eventType: "inbox.created",
      logger,
      wanted: async (raw) => {
        const id = (raw as { data?: { inbox_id?: string } }).data?.inbox_id;
        if (id === "boom") throw new Error("cannot tell");
        return Promise.resolve(id !== "skip");
      },
      handler: async (event) => void handled.push(event.data.inbox_id),
    });
    const skipped = { ...inboxCreated(), data: { ...inboxCreated().data, inbox_id: "skip" } };
    const kept = inboxCreated();
    const unsure = { ...inboxCreated(), data: { ...inboxCreated().data, inbox_id: "boom" } };
    const dlq = await (await import("@nats-io/jetstream")).jetstreamManager(nc);
    const before = (await dlq.streams.info(subjects(ns).dlqStream)).state.messages;
    for (const e of [skipped, kept, unsure]) await js.publish(subjects(ns).event("inbox.created"), JSON.stringify(e), { msgID: e.id });
    // "boom" is wanted, so its schema judges it: not a uuid, dead-lettered; "skip" never reaches the handler
    await waitFor(() => handled.length === 1, { what: "the kept event" });
    await waitFor(async () => (await dlq.streams.info(subjects(ns).dlqStream)).state.messages === before + 1, { what: "dead letter" });
    expect(handled).toEqual([kept.data.inbox_id]);
    await consumer.stop();
  });

  it("when the relay is stopped while events are written, then they are published after it starts again", async () => {
    const received: string[] = [];
    const consumer = await consumeInboxCreated("late", async (e) => void received.push(e.id));
    const events = [inboxCreated(), inboxCreated(), inboxCreated()];
    for (const e of events) await writeWithEvent(pool, ns, e);
    const relay = startOutboxRelay({ pool, js, logger, pollMs: 100 });
    await waitFor(() => events.every((e) => received.includes(e.id)), { what: "all events" });
    await relay.stop();
    await consumer.stop();
  });

  it("when one publish of a batch fails, then exactly that row stays pending and the next pass publishes it", async () => {
    // A namespace with no stream yet: publishing to its subjects is refused until its streams exist.
    const lateNs = uniqueNamespace();
    namespaces.push(lateNs);
    const good = [inboxCreated(), inboxCreated()];
    const bad = inboxCreated();
    await writeWithEvent(pool, ns, good[0]!);
    await writeWithEvent(pool, lateNs, bad);
    await writeWithEvent(pool, ns, good[1]!);
    const relay = startOutboxRelay({ pool, js, logger, pollMs: 60_000 });
    await relay.flush();
    const pending = async () =>
      (
        await pool.query<{ id: string }>("SELECT id FROM outbox_events WHERE published_at IS NULL AND id = ANY($1::uuid[])", [
          [...good, bad].map((e) => e.id),
        ])
      ).rows.map((r) => r.id);
    expect(await pending()).toEqual([bad.id]);
    await ensureStreams(nc, lateNs);
    await relay.flush();
    expect(await pending()).toEqual([]);
    await relay.stop();
  });

  const publishedAt = async (id: string) =>
    (
      await pool.query<{ published_at: Date | null; created_at: Date }>(
        "SELECT published_at, created_at FROM outbox_events WHERE id = $1",
        [id],
      )
    ).rows[0];

  it("when committed rows are handed to the relay, then it publishes them at once, without a pass, and marks them published", async () => {
    const received: string[] = [];
    const consumer = await consumeInboxCreated("direct", async (e) => void received.push(e.id));
    const relay = startOutboxRelay({ pool, js, logger, pollMs: 60_000 });
    await relay.flush(); // the start's pass is over: no other pass runs in this test
    const events = [inboxCreated(), inboxCreated()];
    const rows = [await writeWithEvent(pool, ns, events[0]!), await writeWithEvent(pool, ns, events[1]!)];
    relay.publishCommitted(rows);
    await waitFor(() => events.every((e) => received.includes(e.id)), { what: "both events" });
    await waitFor(async () => (await publishedAt(rows[1]!.id))?.published_at != null, { what: "the rows marked published" });
    expect((await publishedAt(rows[0]!.id))?.published_at).not.toBeNull();
    await relay.stop();
    await consumer.stop();
  });

  it("when a handed row cannot be published, then it stays pending and the periodic pass publishes it once older than the grace", async () => {
    const lateNs = uniqueNamespace(); // no stream yet: its publishes are refused
    namespaces.push(lateNs);
    const relay = startOutboxRelay({ pool, js, logger, pollMs: 50, graceMs: 1500 });
    await relay.flush();
    const row = await writeWithEvent(pool, lateNs, inboxCreated());
    const failures = async () => (await pipeline.outboxPublishFailures.get()).values.reduce((n, v) => n + v.value, 0);
    const before = await failures();
    relay.publishCommitted([row]);
    await waitFor(async () => (await failures()) > before, { what: "the direct publish to fail" });
    await ensureStreams(nc, lateNs); // from now on a publish would land: only a pass publishes it again
    await waitFor(async () => (await publishedAt(row.id))?.published_at != null, { what: "the pass to publish the row" });
    const { published_at: published, created_at: created } = (await publishedAt(row.id))!;
    expect(published!.getTime() - created.getTime()).toBeGreaterThanOrEqual(1500);
    await relay.stop();
  });

  it("when the relay copies an event to a live subject, then the copy goes once the stream holds the event, once: not for a pass's duplicate, and for a row its writer could not publish", async () => {
    const live = (ofNs: string) => `${ofNs}.live.test`;
    const lateNs = uniqueNamespace(); // no stream yet: its publishes are refused
    namespaces.push(lateNs);
    const copies: Array<{ id: string; stored: boolean }> = [];
    const jsm = await jetstreamManager(nc);
    const stored = async (ofNs: string, id: string) =>
      (await jsm.streams.getMessage(subjects(ofNs).stream, { last_by_subj: subjects(ofNs).event("inbox.created") }))?.json<{ id: string }>()
        .id === id;
    const subs = [ns, lateNs].map((n) =>
      nc.subscribe(live(n), {
        callback: (_err, msg) => {
          const id = msg.json<{ id: string }>().id;
          void stored(n, id).then((s) => copies.push({ id, stored: s }));
        },
      }),
    );
    await nc.flush();
    const relay = startOutboxRelay({
      pool,
      js,
      logger,
      pollMs: 60_000,
      live: { nc, subjectOf: ({ subject }) => (subject.endsWith(".events.inbox.created") ? live(subject.split(".events.")[0]!) : null) },
    });
    await relay.flush();
    const event = inboxCreated();
    const row = await writeWithEvent(pool, ns, event);
    relay.publishCommitted([row]);
    await waitFor(() => copies.length === 1, { what: "the live copy" });
    expect(copies).toEqual([{ id: event.id, stored: true }]);
    // the mark lost: a pass publishes the row again, which the stream drops as a duplicate
    await pool.query("UPDATE outbox_events SET published_at = NULL WHERE id = $1", [row.id]);
    expect(await relay.flush()).toBe(1);
    // a row whose writer's publish failed is copied when a pass publishes it
    const late = inboxCreated();
    const lateRow = await writeWithEvent(pool, lateNs, late);
    relay.publishCommitted([lateRow]);
    await relay.flush();
    await ensureStreams(nc, lateNs);
    await relay.flush();
    await waitFor(() => copies.length === 2, { what: "the late row's copy" });
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(copies).toEqual([
      { id: event.id, stored: true },
      { id: late.id, stored: true },
    ]);
    for (const sub of subs) sub.unsubscribe();
    await relay.stop();
  });

  it("when a request/reply subject is served, then both ends check the contract", async () => {
    const server = serveRpc(
      nc,
      ns,
      "inbox.get_inbox_access",
      async ({ inbox_id }) => ({
        inbox: {
          id: inbox_id,
          org_id: randomUUID(),
          team_id: TEAM,
          domain_assignment_id: randomUUID(),
          created_by: randomUUID(),
          private: false,
          is_active: true,
        },
      }),
      logger,
    );
    const id = randomUUID();
    const reply = await rpcRequest(nc, ns, "inbox.get_inbox_access", { inbox_id: id });
    expect(reply.inbox?.id).toBe(id);
    await expect(rpcRequest(nc, ns, "inbox.get_inbox_access", { inbox_id: "not-a-uuid" })).rejects.toThrow();
    await server.stop();
  });
});
