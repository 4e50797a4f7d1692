import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcName } from "@burnbox/contracts";
import { outboxRow, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { SpanKind, startInMemoryTracing, withSpan } from "@burnbox/service-kit/telemetry";
import {
  deleteNamespaceStreams,
  dropDatabase,
  makeActor,
  serviceClient,
  testDatabaseUrl,
  uniqueNamespace,
  waitFor,
} from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { dispatchConsumerName } from "../src/messaging/dispatch.consumer";
import { emailReceivedEvent, startDispatcherInfra } from "./factories";

/**
 * One trace from the mail's arrival to the webhook's receiver: the event is written to the outbox
 * inside the span the SMTP intake opens ("smtp DATA"), the relay publishes it with the trace in
 * NATS headers, the dispatcher's consumer continues it, and the delivery's POST carries it on.
 * The delivery row keeps the consumer span's traceparent, so every attempt, retries included and on
 * whichever replica, continues that trace.
 */
describe("webhook-dispatcher tracing on real Postgres and NATS", () => {
  const ns = uniqueNamespace("whdt");
  const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
  const lead = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  let tracing: Awaited<ReturnType<typeof startInMemoryTracing>>;
  let infra: Infra;
  let service: RunningService;
  let rpc: { stop(): Promise<void> };

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    const started = await startDispatcherInfra(ns, dbUrl, { delivery: { poll_interval: "50ms", retry_base: "100ms" } });
    const config = started.config;
    infra = started.infra;
    rpc = serveRpc(infra.nc, ns, RpcName.authorize, async () => ({ allowed: true, reason: null }), infra.logger);
    service = await startService(config, infra);
  });

  afterAll(async () => {
    await service?.stop();
    await rpc?.stop();
    await deleteNamespaceStreams(infra.nc, ns);
    await infra?.close();
    await dropDatabase(dbUrl);
    await tracing?.stop();
  });

  it("when mail arrives inside a trace, then intake, outbox publish, dispatcher consume and webhook POST share its trace id and the receiver gets its traceparent", async () => {
    const received: IncomingHttpHeaders[] = [];
    const rx = createServer((req, res) => {
      received.push(req.headers);
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
    try {
      const port = (rx.address() as AddressInfo).port;
      const call = serviceClient(`http://127.0.0.1:${service.port}`);
      const hook = await call("POST", `/orgs/${orgId}/teams/${teamId}/webhooks`, {
        actor: lead,
        body: { url: `http://localhost:${port}/hook`, events: ["email.received"] },
      });
      expect(hook.status).toBe(201);

      const event = emailReceivedEvent({ orgId, teamId }, { subject: "Traced" });
      const intake = await withSpan("smtp DATA", { kind: SpanKind.SERVER }, async (span) => {
        const row = outboxRow(ns, event);
        await infra.pool!.query("INSERT INTO outbox_events (id, subject, payload) VALUES ($1, $2, $3)", [
          row.id,
          row.subject,
          JSON.stringify(row.payload),
        ]);
        return span.spanContext();
      });

      await waitFor(() => received.length === 1 && tracing.spans().some((s) => s.name === "webhook POST"), {
        what: "the traced delivery",
      });
      const spans = tracing.spans().filter((s) => s.traceId === intake.traceId);
      const byName = (name: string) => spans.find((s) => s.name === name);
      const publish = spans.find((s) => s.name.endsWith(" publish"));
      const consume = byName(`${dispatchConsumerName("email.received")} process`);
      const post = byName("webhook POST");
      expect(publish).toMatchObject({ kind: SpanKind.PRODUCER, parentSpanId: intake.spanId });
      expect(consume).toMatchObject({ kind: SpanKind.CONSUMER, parentSpanId: publish?.spanId });
      expect(post).toMatchObject({ kind: SpanKind.CLIENT, parentSpanId: consume?.spanId });
      expect(received[0]?.traceparent).toBe(`00-${intake.traceId}-${post?.spanId}-01`);
    } finally {
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });

  it("when the first attempt fails, then the retry continues the same trace from the delivery row", async () => {
    const received: IncomingHttpHeaders[] = [];
    const rx = createServer((req, res) => {
      received.push(req.headers);
      req.resume();
      req.on("end", () => {
        res.statusCode = received.length === 1 ? 503 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
    try {
      const port = (rx.address() as AddressInfo).port;
      const team = randomUUID();
      const call = serviceClient(`http://127.0.0.1:${service.port}`);
      const hook = await call("POST", `/orgs/${orgId}/teams/${team}/webhooks`, {
        actor: lead,
        body: { url: `http://localhost:${port}/retry`, events: ["email.received"] },
      });
      expect(hook.status).toBe(201);
      const event = emailReceivedEvent({ orgId, teamId: team }, { subject: "Retried" });
      const intake = await withSpan("smtp DATA", { kind: SpanKind.SERVER }, async (span) => {
        const row = outboxRow(ns, event);
        await infra.pool!.query("INSERT INTO outbox_events (id, subject, payload) VALUES ($1, $2, $3)", [
          row.id,
          row.subject,
          JSON.stringify(row.payload),
        ]);
        return span.spanContext();
      });
      await waitFor(() => received.length === 2, { what: "the failed attempt and its retry" });
      const stored = await infra.pool!.query<{ trace_parent: string }>("SELECT trace_parent FROM deliveries WHERE event_id = $1", [
        event.id,
      ]);
      const consume = tracing
        .spans()
        .find((s) => s.traceId === intake.traceId && s.name === `${dispatchConsumerName("email.received")} process`);
      expect(stored.rows[0]?.trace_parent).toBe(`00-${intake.traceId}-${consume?.spanId}-01`);
      await waitFor(() => tracing.spans().filter((s) => s.traceId === intake.traceId && s.name === "webhook POST").length === 2, {
        what: "both POST spans",
      });
      const posts = tracing.spans().filter((s) => s.traceId === intake.traceId && s.name === "webhook POST");
      expect(posts.map((p) => p.parentSpanId)).toEqual([consume?.spanId, consume?.spanId]);
      expect(received.map((h) => String(h.traceparent).split("-")[1])).toEqual([intake.traceId, intake.traceId]);
    } finally {
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });
});
