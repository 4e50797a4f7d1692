import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import type { NatsConnection } from "@nats-io/nats-core";
import { context, trace } from "@opentelemetry/api";
import { RPCType, setRPCMetadata, type RPCMetadata } from "@opentelemetry/core";
import { deleteNamespaceStreams, testDatabaseUrl, testInfra, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import { prepareDatabase } from "../src/data";
import {
  OUTBOX_TRACE_KEY,
  connectNats,
  ensureStreams,
  jetstream,
  newEvent,
  outboxRow,
  rpcRequest,
  serveRpc,
  startConsumer,
  startOutboxRelay,
} from "../src/messaging";
import { createLogger, pipeline } from "../src/runtime";
import { SpanKind, activeTraceId, setHttpRoute, startInMemoryTracing, withSpan } from "../src/telemetry";

const logger = createLogger({ service: "kit-test", level: "silent" });
const MIGRATIONS = path.join(__dirname, "fixtures", "migrations");

describe("trace context through the outbox and a consumer", () => {
  const url = testDatabaseUrl(`bbtest_kit_trace_${uniqueNamespace("")}`);
  const ns = uniqueNamespace();
  let pool: Pool;
  let nc: NatsConnection;
  let tracing: Awaited<ReturnType<typeof startInMemoryTracing>>;

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    pool = await prepareDatabase(url, MIGRATIONS, logger);
    nc = await connectNats(testInfra.natsUrl, "kit-trace-test");
    await ensureStreams(nc, ns);
  });

  afterAll(async () => {
    await tracing.stop();
    await deleteNamespaceStreams(nc, ns);
    await nc.drain();
    await pool.end();
  });

  it("when an event is written inside a span, then the relay's publish and the consumer's span share its trace id and the published body has no trace key", async () => {
    const team = randomUUID();
    const event = newEvent("inbox.created", {
      org_id: randomUUID(),
      team_id: team,
      data: { inbox_id: randomUUID(), team_id: team, address: "a", full_address: "a@x.test", expires_at: new Date().toISOString() },
    });
    const received: { body: Record<string, unknown>; traceparent: string | undefined }[] = [];
    const consumer = await startConsumer({
      nc,
      namespace: ns,
      durable: "trace-test",
      eventType: "inbox.created",
      logger,
      handler: async (_e, msg) => {
        const headers: { get(k: string): string } | undefined = msg.headers;
        received.push({ body: msg.json(), traceparent: headers?.get("traceparent") || undefined });
      },
    });
    const processedBefore = await counterValue(pipeline.consumerMessages, { durable: "trace-test", outcome: "processed" });
    const relay = startOutboxRelay({ pool, js: jetstream(nc), logger, pollMs: 60_000 });
    try {
      const origin = await withSpan("smtp intake", { kind: SpanKind.SERVER }, async (span) => {
        const row = outboxRow(ns, event);
        expect(row.payload[OUTBOX_TRACE_KEY]).toMatchObject({ traceparent: expect.stringContaining(span.spanContext().traceId) });
        await pool.query("INSERT INTO outbox_events (id, subject, payload) VALUES ($1, $2, $3)", [
          row.id,
          row.subject,
          JSON.stringify(row.payload),
        ]);
        return span.spanContext();
      });
      await relay.flush();
      await waitFor(() => received.length === 1 && tracing.spans().some((s) => s.name === "trace-test process"));

      const spans = tracing.spans();
      const publish = spans.find((s) => s.name.endsWith(" publish"))!;
      const consume = spans.find((s) => s.name === "trace-test process")!;
      expect(publish).toMatchObject({ traceId: origin.traceId, parentSpanId: origin.spanId, kind: SpanKind.PRODUCER });
      expect(consume).toMatchObject({ traceId: origin.traceId, parentSpanId: publish.spanId, kind: SpanKind.CONSUMER });
      expect(received[0]!.traceparent).toContain(origin.traceId);
      expect(received[0]!.body).not.toHaveProperty(OUTBOX_TRACE_KEY);
      expect(received[0]!.body).toEqual(JSON.parse(JSON.stringify(event)));
      expect(await counterValue(pipeline.consumerMessages, { durable: "trace-test", outcome: "processed" })).toBe(processedBefore + 1);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  });

  it("when a request/reply is made inside a span, then the server's handler runs in a child span of the same trace", async () => {
    let seen: string | undefined;
    const server = serveRpc(
      nc,
      ns,
      "inbox.get_inbox_access",
      async () => {
        seen = activeTraceId();
        return { inbox: null };
      },
      logger,
    );
    try {
      const traceId = await withSpan("caller", { kind: SpanKind.INTERNAL }, async (span) => {
        await rpcRequest(nc, ns, "inbox.get_inbox_access", { inbox_id: randomUUID() });
        return span.spanContext().traceId;
      });
      expect(seen).toBe(traceId);
      expect(tracing.spans().find((s) => s.name === "inbox.get_inbox_access rpc")).toMatchObject({ traceId, kind: SpanKind.SERVER });
    } finally {
      await server.stop();
    }
  });

  it("when a request served outside express names its route, then the HTTP server span's metadata carries it; outside a request nothing changes", () => {
    const span = trace.getTracer("kit-test").startSpan("GET");
    const metadata: RPCMetadata = { type: RPCType.HTTP, span };
    context.with(setRPCMetadata(trace.setSpan(context.active(), span), metadata), () => setHttpRoute("/api/v1/inboxes/:id"));
    span.end();
    expect(metadata.route).toBe("/api/v1/inboxes/:id");
    expect(() => setHttpRoute("/nowhere")).not.toThrow();
  });

  it("when no span is active, then the outbox row carries no trace key", () => {
    const event = newEvent("audit.recorded", {
      org_id: null,
      team_id: null,
      data: {
        action: "x",
        actor_user_id: null,
        actor_api_key_id: null,
        target_type: "t",
        target_id: null,
        ip_address: null,
        metadata: {},
      },
    });
    expect(outboxRow(ns, event).payload).not.toHaveProperty(OUTBOX_TRACE_KEY);
  });
});

async function counterValue(c: typeof pipeline.consumerMessages, labels: { durable: string; outcome: string }): Promise<number> {
  const { values } = await c.get();
  return values.find((v) => v.labels.durable === labels.durable && v.labels.outcome === labels.outcome)?.value ?? 0;
}
