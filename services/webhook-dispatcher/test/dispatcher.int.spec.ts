import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcName, subjects, type Actor, type WebhookEvent } from "@burnbox/contracts";
import { connectNats, jetstreamManager, newEvent, publishChanges, publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import {
  deleteNamespaceStreams,
  dropDatabase,
  makeActor,
  serviceClient,
  testDatabaseUrl,
  testInfra,
  uniqueNamespace,
  waitFor,
} from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { DeliveryQueue } from "../src/data/delivery-queue.repository";
import { deliveryBody } from "../src/domain/deliveries/delivery-body";
import { scheduleDeliveries } from "../src/domain/deliveries/schedule-deliveries.use-case";
import { systemResolver } from "../src/adapters/webhook-sender";
import { dispatchConsumerName } from "../src/messaging/dispatch.consumer";
import { startDeliveryWorker } from "../src/workers/delivery.worker";
import { EXTRACTED, emailReceivedEvent, startDispatcherInfra } from "./factories";

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A local receiver whose answers the test scripts: a list of statuses, then 200s. */
async function receiver(script: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = script.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("webhook-dispatcher on real Postgres and NATS", () => {
  const ns = uniqueNamespace("whd");
  const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
  let infra: Infra;
  let service: RunningService;
  let call: ReturnType<typeof serviceClient>;
  let rpc: { stop(): Promise<void> };
  const lead = makeActor();
  const member = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();

  beforeAll(async () => {
    const started = await startDispatcherInfra(ns, dbUrl, {
      defaults: { webhook_timeout: "1s", webhook_max_retries: 3 },
      delivery: { retry_base: "300ms", poll_interval: "50ms" },
    });
    const config = started.config;
    infra = started.infra;
    rpc = serveRpc(
      infra.nc,
      ns,
      RpcName.authorize,
      async (req) => {
        if (req.team_id !== teamId) return { allowed: false, reason: "team_not_found" };
        if (req.actor.user_id === lead.user_id) return { allowed: true, reason: null };
        if (req.actor.user_id === member.user_id)
          return { allowed: req.permission.endsWith(".view"), reason: req.permission.endsWith(".view") ? null : "missing_permission" };
        return { allowed: false, reason: "not_member" };
      },
      infra.logger,
    );
    // hooks.example.test "resolves" to loopback: the dispatch-time check must refuse it.
    const resolver = async (host: string) => (host === "hooks.example.test" ? [{ address: "127.0.0.1", family: 4 }] : systemResolver(host));
    service = await startService(config, infra, { resolver });
    call = serviceClient(`http://127.0.0.1:${service.port}`);
  });

  afterAll(async () => {
    await service?.stop();
    await rpc?.stop();
    await deleteNamespaceStreams(infra.nc, ns);
    await infra?.close();
    await dropDatabase(dbUrl);
  });

  const createHook = (actor: Actor, url: string, events = ["email.received", "inbox.created", "inbox.expired"]) =>
    call<{ id: string; secret: string; failure_count: number; code?: string }>("POST", `/orgs/${orgId}/teams/${teamId}/webhooks`, {
      actor,
      body: { url, events },
    });

  const emailEvent = (subject = "Hi") => emailReceivedEvent({ orgId, teamId }, { subject });

  /** Resolves once the consumers of `types` have handled every message published so far. */
  const drained = async (...types: WebhookEvent[]) => {
    const jsm = await jetstreamManager(infra.nc);
    for (const type of types) {
      await waitFor(
        async () => {
          const info = await jsm.consumers.info(subjects(ns).stream, dispatchConsumerName(type));
          return info.num_pending === 0 && info.num_ack_pending === 0;
        },
        { what: `the ${type} consumer to drain` },
      );
    }
  };

  /** The webhook's deliveries once none is pending any more (each sent, or given up). */
  const settledDeliveries = (webhookId: string, count: number) =>
    waitFor(
      async () => {
        const rows = await service.db.delivery.findMany({ where: { webhookId } });
        return rows.length === count && rows.every((r) => r.status !== "pending") ? rows : null;
      },
      { what: `${count} settled deliveries` },
    );

  it("when a webhook is created, then its secret is 64 hex and only a manager may create one", async () => {
    const rx = await receiver();
    const hook = await createHook(lead, `http://localhost:${rx.port}/hook`);
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook.body.failure_count).toBe(0);
    expect((await createHook(member, `http://localhost:${rx.port}/hook`)).status).toBe(403);
    expect((await createHook(makeActor(), `http://localhost:${rx.port}/hook`)).status).toBe(404);
    await rx.close();
  });

  it.each(["http://127.0.0.1/x", "http://[::ffff:127.0.0.1]/x", "http://2130706433/x", "http://printer.local/x", "ftp://example.com/x"])(
    "when the URL is %s, then create answers 400 in the envelope",
    async (url) => {
      const res = await createHook(lead, url);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_error");
    },
  );

  it("when each subscribed event happens, then one signed delivery arrives per event with the contract's headers and body", async () => {
    const rx = await receiver();
    const hook = await createHook(lead, `http://localhost:${rx.port}/hook`);
    const email = emailEvent("Signed");
    await publishEvent(infra.js, ns, email);
    // the same event again under another message id, so the stream does not drop it: the consumer's claim must
    await infra.js.publish(subjects(ns).event(email.type), JSON.stringify(email), { msgID: randomUUID() });
    await publishEvent(
      infra.js,
      ns,
      newEvent("inbox.created", {
        org_id: orgId,
        team_id: teamId,
        data: { inbox_id: randomUUID(), team_id: teamId, address: "a", full_address: "a@x.test", expires_at: new Date().toISOString() },
      }),
    );
    await publishEvent(
      infra.js,
      ns,
      newEvent("inbox.expired", {
        org_id: orgId,
        team_id: teamId,
        data: { inbox_id: randomUUID(), team_id: teamId, full_address: "a@x.test", expired_at: new Date().toISOString() },
      }),
    );
    await drained("email.received", "inbox.created", "inbox.expired");
    const rows = await settledDeliveries(hook.body.id, 3);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
    expect(rx.received.map((r) => r.headers["x-service-event"]).sort()).toEqual(["email.received", "inbox.created", "inbox.expired"]);
    const d = rx.received.find((r) => r.headers["x-service-event"] === "email.received")!;
    expect(d.headers["x-service-signature"]).toBe(createHmac("sha256", hook.body.secret).update(d.raw).digest("hex"));
    const body = JSON.parse(d.raw) as { id: string; event: string; timestamp: string; data: Record<string, unknown> };
    expect(body.id).toBe(d.headers["x-service-delivery-id"]);
    expect(body).toMatchObject({
      event: "email.received",
      timestamp: email.occurred_at,
      data: { email_id: email.data.email_id, subject: "Signed", extracted: EXTRACTED },
    });
    expect(body.data).not.toHaveProperty("summary");
    expect(Math.abs(Number(d.headers["x-service-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    await rx.close();
  });

  it("when the receiver answers 500 twice, then the third attempt succeeds with the same delivery id, spaced by base and 5 x base", async () => {
    const rx = await receiver([500, 500]);
    const hook = await createHook(lead, `http://localhost:${rx.port}/retry`, ["email.received"]);
    await publishEvent(infra.js, ns, emailEvent("Retry"));
    await waitFor(() => rx.received.length >= 3, { what: "three attempts", timeoutMs: 10_000 });
    const ids = new Set(rx.received.map((r) => r.headers["x-service-delivery-id"]));
    expect(ids.size).toBe(1);
    const [a, b, c] = rx.received.map((r) => r.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(300);
    // upper bounds are loose: the schedule is in the rows, the poll interval and a busy CPU only add to it
    expect(b - a).toBeLessThan(3000);
    expect(c - b).toBeGreaterThanOrEqual(1500);
    expect(c - b).toBeLessThan(5000);
    // the log row of an attempt is written after its response arrives: wait for the third
    const rows = await waitFor(async () => {
      const r = await service.db.deliveryAttempt.findMany({ where: { webhookId: hook.body.id }, orderBy: { attempt: "asc" } });
      return r.length === 3 ? r : null;
    });
    expect(rows.map((r) => [r.attempt, r.success, r.responseStatus])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    expect((await service.db.webhook.findUniqueOrThrow({ where: { id: hook.body.id } })).failureCount).toBe(0);
    await rx.close();
  });

  it("when a name resolves to loopback at dispatch, then the connection is refused and logged as a failed attempt, and failure_count rises after the last", async () => {
    const rx = await receiver();
    const hook = await createHook(lead, `http://hooks.example.test:${rx.port}/x`, ["email.received"]);
    expect(hook.status).toBe(201);
    await publishEvent(infra.js, ns, emailEvent("Rebind"));
    const rows = await waitFor(
      async () => {
        const r = await service.db.deliveryAttempt.findMany({ where: { webhookId: hook.body.id }, orderBy: { attempt: "asc" } });
        return r.length === 3 ? r : null;
      },
      { what: "three refused attempts", timeoutMs: 10_000 },
    );
    expect(rows.every((r) => !r.success && r.responseStatus === null && /refused/.test(r.error ?? ""))).toBe(true);
    expect(rx.received).toHaveLength(0);
    await waitFor(async () => (await service.db.webhook.findUniqueOrThrow({ where: { id: hook.body.id } })).failureCount === 1, {
      what: "failure_count 1",
    });
    const hookRow = await service.db.webhook.findUniqueOrThrow({ where: { id: hook.body.id } });
    expect(hookRow.active).toBe(true);
    await rx.close();
  });

  it("when a delivery was claimed by a process that died, then it becomes due after its lease and is sent with its own id", async () => {
    const rx = await receiver();
    const hook = await createHook(lead, `http://localhost:${rx.port}/lease`, ["email.received"]);
    const event = emailEvent("Orphan");
    const id = randomUUID();
    // As a crashed sender leaves it: attempt 1 counted, lease (next_attempt_at) already expired.
    await service.db.delivery.create({
      data: {
        id,
        webhookId: hook.body.id,
        eventId: event.id,
        event: "email.received",
        body: deliveryBody(id, event),
        attempts: 1,
        nextAttemptAt: new Date(Date.now() - 1000),
      },
    });
    await waitFor(() => rx.received.length >= 1, { what: "the orphaned delivery", timeoutMs: 5_000 });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers["x-service-delivery-id"]).toBe(id);
    // the row is marked after the response arrives: wait for it rather than race it
    const row = await waitFor(async () => {
      const r = await service.db.delivery.findUniqueOrThrow({ where: { id } });
      return r.status === "pending" ? null : r;
    });
    expect([row.status, row.attempts]).toEqual(["succeeded", 2]);
    await rx.close();
  });

  it("when two workers (replicas) poll the same table, then every delivery is sent exactly once", async () => {
    const rx = await receiver();
    const hook = await createHook(lead, `http://localhost:${rx.port}/replicas`, ["email.received"]);
    const second = startDeliveryWorker(service.deps, infra.logger);
    try {
      const events = Array.from({ length: 20 }, (_, i) => emailEvent(`Replica ${i}`));
      await Promise.all(events.map((e) => publishEvent(infra.js, ns, e)));
      // a second send would need a second claim, and every claim counts an attempt
      const rows = await settledDeliveries(hook.body.id, 20);
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ["succeeded", 1]));
      const ids = rx.received.map((r) => r.headers["x-service-delivery-id"]);
      expect(rx.received).toHaveLength(20);
      expect(new Set(ids)).toEqual(new Set(rows.map((r) => r.id)));
    } finally {
      await second.stop();
      await rx.close();
    }
  });

  it("when the webhook_retry job runs, then it clears a failure_count of 1 or 2 on active webhooks only", async () => {
    const ids: string[] = [];
    for (const [failureCount, active] of [
      [1, true],
      [2, true],
      [3, true],
      [2, false],
    ] as const) {
      const hook = await createHook(lead, "http://localhost:9/retry-job", ["inbox.expired"]);
      await service.db.webhook.update({ where: { id: hook.body.id }, data: { failureCount, active } });
      ids.push(hook.body.id);
    }
    await service.workers.webhookRetry.runNow();
    const rows = await service.db.webhook.findMany({ where: { id: { in: ids } } });
    expect(ids.map((id) => rows.find((r) => r.id === id)?.failureCount)).toEqual([0, 0, 3, 2]);
  });

  it("when an event is scheduled, then only the team's active subscribers get a delivery, and its redelivery schedules nothing", async () => {
    const hook = async (events: WebhookEvent[], change: { active?: boolean; teamId?: string } = {}) => {
      const created = await createHook(lead, "http://localhost:9/schedule", events);
      if (change.active !== undefined || change.teamId) await service.db.webhook.update({ where: { id: created.body.id }, data: change });
      return created.body.id;
    };
    await service.db.webhook.updateMany({ where: { teamId }, data: { active: false } }); // the earlier tests' hooks
    const subscriber = await hook(["email.received"]);
    const others = [
      await hook(["inbox.created"]),
      await hook(["email.received"], { active: false }),
      await hook(["email.received"], { teamId: randomUUID() }),
    ];
    const event = emailEvent("scheduled once");
    const consumer = dispatchConsumerName("email.received");
    expect(await scheduleDeliveries(service.deps, { consumer: "schedule-test", event })).toBe(1);
    expect(await scheduleDeliveries(service.deps, { consumer: "schedule-test", event })).toBe(0);
    const rows = await service.db.delivery.findMany({ where: { eventId: event.id } });
    expect(rows.map((r) => r.webhookId)).toEqual([subscriber]);
    expect(JSON.parse(rows[0]?.body ?? "{}")).toEqual(JSON.parse(deliveryBody(rows[0]?.id ?? "", event)));
    expect(await service.db.processedEvent.count({ where: { consumer: "schedule-test", eventId: event.id } })).toBe(1);
    expect(await service.db.processedEvent.count({ where: { consumer, eventId: event.id } })).toBe(0);
    // a team whose webhooks take none of the event's type: no claim, so a redelivery asks again
    const unsubscribed = emailReceivedEvent({ orgId, teamId: randomUUID() });
    expect(await scheduleDeliveries(service.deps, { consumer: "schedule-test", event: unsubscribed })).toBe(0);
    expect(await service.db.processedEvent.count({ where: { eventId: unsubscribed.id } })).toBe(0);
    // the subscriber reads asked together (one statement) each get their own team's and type's
    const reads = await Promise.all([
      service.deps.data.hot.deliveries.subscribers({ orgId, teamId }, "email.received"),
      service.deps.data.hot.deliveries.subscribers({ orgId, teamId }, "inbox.created"),
      service.deps.data.hot.deliveries.subscribers({ orgId, teamId: randomUUID() }, "email.received"),
      service.deps.data.hot.deliveries.subscribers({ orgId: randomUUID(), teamId }, "email.received"),
      service.deps.data.hot.deliveries.subscribers({ orgId, teamId }, "email.received"),
    ]);
    expect(reads).toEqual([[subscriber], [others[0]], [], [], [subscriber]]);
    await service.db.webhook.updateMany({ where: { id: { in: [subscriber, ...others] } }, data: { active: false } });
  });

  it("when another replica has a team's subscribers cached, then a webhook created, changed or deleted here reaches it by broadcast, not by expiry", async () => {
    // replica B: its own NATS connection, the same database; a minute's cache, so only the broadcast can refresh it
    const nc = await connectNats(testInfra.natsUrl, "dispatcher-replica-b");
    try {
      const b = new DeliveryQueue(infra.pool!, { nc, namespace: ns, maxAgeMs: 60_000 });
      await nc.flush(); // after the cache's own flush: its subscription is confirmed
      const scope = { orgId, teamId };
      await service.db.webhook.updateMany({ where: { teamId }, data: { active: false } });
      // as a webhook change of the team commits (the unit of work broadcasts its audit event)
      await publishChanges(infra.nc, ns, [{ type: "audit.recorded", org_id: orgId, team_id: teamId, data: { action: "webhook.updated" } }]);
      await infra.nc.flush(); // the server has the broadcast...
      await nc.flush(); // ...and B has had it: what B reads now is kept
      expect(await b.subscribers(scope, "inbox.expired")).toEqual([]);
      // B answers from its cache: a row written behind every replica's back stays unseen
      const hidden = randomUUID();
      await service.db.webhook.create({
        data: {
          id: hidden,
          orgId,
          teamId,
          createdBy: lead.user_id,
          url: "http://localhost:9/hidden",
          events: ["inbox.expired"],
          secret: "s",
        },
      });
      expect(await b.subscribers(scope, "inbox.expired")).toEqual([]);
      // a webhook created through this replica: B drops its copy and reads both
      const created = await createHook(lead, "http://localhost:9/broadcast", ["inbox.expired"]);
      await waitFor(async () => (await b.subscribers(scope, "inbox.expired")).length === 2, { what: "B to see the new webhook" });
      expect((await b.subscribers(scope, "inbox.expired")).sort()).toEqual([created.body.id, hidden].sort());
      // changed to other events, then deleted: gone from B's answers as well
      const patched = await call("PATCH", `/orgs/${orgId}/teams/${teamId}/webhooks/${created.body.id}`, {
        actor: lead,
        body: { events: ["email.received"] },
      });
      expect(patched.status).toBe(200);
      await waitFor(async () => (await b.subscribers(scope, "inbox.expired")).length === 1, { what: "B to drop the changed webhook" });
      expect(await b.subscribers(scope, "email.received")).toEqual([created.body.id]);
      const removed = await call("DELETE", `/orgs/${orgId}/teams/${teamId}/webhooks/${created.body.id}`, { actor: lead });
      expect(removed.status).toBe(200);
      await waitFor(async () => (await b.subscribers(scope, "email.received")).length === 0, { what: "B to drop the deleted webhook" });
      await service.db.webhook.update({ where: { id: hidden }, data: { active: false } });
    } finally {
      await nc.close();
    }
  });
});
