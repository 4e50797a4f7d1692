import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { subjects } from "@burnbox/contracts";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { SpanKind, startInMemoryTracing } from "@burnbox/service-kit/telemetry";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.trace-test.example";

/**
 * The start of a message's trace: the intake's `smtp DATA` span, the relay's publish of its
 * email.received event as a child, and the trace in the NATS message headers that the consumers
 * (webhook-dispatcher/test/tracing.int.spec.ts) continue.
 */
describe("SMTP intake tracing on real Postgres and NATS", () => {
  let tracing: Awaited<ReturnType<typeof startInMemoryTracing>>;
  let t: TestService<InboxConfig, RunningService>;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  const stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();
  const published: Array<{ type: string; traceparent: string | undefined }> = [];

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    t = await startInboxTestService("inbt");
    const { infra, ns, config } = t;
    intakeInfra = await startInfra({ config, database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR }, logDestination: new LogCapture() });
    stops.push(...serveTenancyStandIn(infra, ns, { assignmentId, orgId, teamId, domain: DOMAIN }));
    const sub = infra.nc.subscribe(subjects(ns).eventsWildcard, {
      callback: (_err, msg) => {
        const headers: { get(k: string): string } | undefined = msg.headers;
        published.push({ type: msg.json<{ type: string }>().type, traceparent: headers?.get("traceparent") || undefined });
      },
    });
    stops.push({ stop: async () => sub.unsubscribe() });
    intake = await startIntake(config, intakeInfra);
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
    await tracing?.stop();
  });

  it("when mail is accepted, then its email.received event is published under the intake's span and carries its trace in the headers", async () => {
    const inbox = await t.call<{ full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, alias: "traced" },
    });
    expect(inbox.status).toBe(201);
    const mailer = nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
    await mailer.sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "Traced", text: "hi" });

    const event = await waitFor(() => published.find((e) => e.type === "email.received"), { what: "email.received" });
    const data = tracing.spans().find((s) => s.name === "smtp DATA");
    expect(data).toMatchObject({ kind: SpanKind.SERVER, parentSpanId: undefined });
    const publish = await waitFor(() =>
      tracing.spans().find((s) => s.traceId === data?.traceId && s.name === `${subjects(t.ns).event("email.received")} publish`),
    );
    expect(publish).toMatchObject({ kind: SpanKind.PRODUCER, parentSpanId: data?.spanId });
    expect(event.traceparent).toBe(`00-${data?.traceId}-${publish.spanId}-01`);
    // the statement that stored it may serve other sessions' messages too: a trace of its own
    const write = tracing.spans().find((s) => s.name === "intake receive");
    expect(write).toMatchObject({ parentSpanId: undefined });
    expect(write?.traceId).not.toBe(data?.traceId);
  });
});
