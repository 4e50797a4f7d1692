import { randomBytes, randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { RpcName, subjects } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, startService, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { MIGRATIONS_DIR, createTestInbox, startInboxTestService } from "./inbox-test-service";

const DEMO_DOMAIN = "demo.inbox-test.example";
const PER_IP = 2;

interface DemoInboxBody {
  inbox_id: string;
  address: string;
  expires_at: string;
}

describe("the public demo (/try) on real Postgres and NATS", () => {
  let t: TestService<InboxConfig, RunningService>;
  let config: InboxConfig;
  let intakeInfra: Infra;
  let service: RunningService;
  let intake: RunningIntake;
  let call: TestService<InboxConfig, RunningService>["call"];
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const stops: Array<{ stop(): Promise<void> }> = [];
  let now = Date.UTC(2026, 5, 1, 10, 0, 0);
  const newIp = () => `10.9.${randomBytes(1)[0] ?? 1}.${Math.max(1, randomBytes(1)[0] ?? 1)}`;

  beforeAll(async () => {
    t = await startInboxTestService("demo", {
      start: (c, i) => startService(c, i, { now: () => now }),
      overrides: () => ({ demo: { enabled: true, domain: DEMO_DOMAIN, ttl: "10m", per_ip_per_hour: PER_IP } }),
    });
    ({ config, service, call } = t);
    // every caller is refused by tenancy: a demo inbox must never depend on it
    stops.push(serveRpc(t.infra.nc, t.ns, RpcName.authorize, async () => ({ allowed: false, reason: "not_member" }), t.infra.logger));
    const sub = t.infra.nc.subscribe(subjects(t.ns).eventsWildcard, {
      callback: (_err, msg) => {
        events.push(msg.json());
      },
    });
    stops.push({ stop: async () => sub.unsubscribe() });
    intakeInfra = await startInfra({ config, database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR }, logDestination: new LogCapture() });
    intake = await startIntake(config, intakeInfra, { now: () => now });
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  afterEach(() => {
    config.demo.enabled = true;
  });

  const createDemo = (clientIp: string) => call<DemoInboxBody>("POST", "/try/inbox", { actor: null, clientIp });
  const mailer = () => nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });

  it("when the demo is on, then a caller without credentials creates an inbox on the demo domain with the demo TTL, audited", async () => {
    expect((await call("GET", "/try/status", { actor: null })).body).toEqual({ enabled: true });
    const res = await createDemo(newIp());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      inbox_id: expect.any(String),
      address: expect.stringMatching(/^[a-z0-9]{10}@demo\.inbox-test\.example$/),
      expires_at: new Date(now + 600_000).toISOString(),
    });
    const audit = await waitFor(() => events.find((e) => e.type === "audit.recorded" && e.data.target_id === res.body.inbox_id), {
      what: "audit entry",
    });
    expect(audit.data).toMatchObject({ action: "demo.inbox_created", target_type: "inbox" });
  });

  it("when mail is sent to a demo inbox, then /try lists it and the tenant routes answer 404 even to a team member", async () => {
    const demo = (await createDemo(newIp())).body;
    await mailer().sendMail({ from: "someone@example.org", to: demo.address, subject: "hello demo", text: "it works" });
    const list = await call<{ data: Array<{ subject: string }>; total: number }>("GET", `/try/inbox/${demo.inbox_id}/emails`, {
      actor: null,
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, data: [{ subject: "hello demo", from_address: "someone@example.org" }] });
    const anyone = makeActor({ is_system_admin: true });
    expect((await call("GET", `/inboxes/${demo.inbox_id}`, { actor: anyone })).status).toBe(404);
    expect((await call("GET", `/inboxes/${demo.inbox_id}/emails`, { actor: anyone })).status).toBe(404);
  });

  it("when an IP has created its hourly share, then the next is 429 in the spec 7.2 shape, another IP still may, and the next hour it may again", async () => {
    const ip = newIp();
    for (let i = 0; i < PER_IP; i++) expect((await createDemo(ip)).status).toBe(201);
    const refused = await createDemo(ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), retry_after: 3600 });
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect((await createDemo(newIp())).status).toBe(201);
    now += 3_600_000;
    expect((await createDemo(ip)).status).toBe(201);
  });

  it("when a team inbox id or an unknown id is asked through /try, then both are the same 404", async () => {
    const scope = { orgId: randomUUID(), teamId: randomUUID() };
    const team = await createTestInbox(service.deps, scope, {
      prefix: "team",
      domain: "team.inbox-test.example",
      createdAt: new Date(now),
    });
    const answers = await Promise.all([team.id, randomUUID()].map((id) => call("GET", `/try/inbox/${id}/emails`, { actor: null })));
    for (const a of answers) expect(a).toMatchObject({ status: 404, body: { error: "inbox not found", code: "not_found" } });
  });

  it("when the demo is off, then status says so and every other /try operation is 404, creating nothing", async () => {
    const demo = (await createDemo(newIp())).body;
    config.demo.enabled = false;
    expect((await call("GET", "/try/status", { actor: null })).body).toEqual({ enabled: false });
    const created = await createDemo(newIp());
    expect(created.status).toBe(404);
    expect(created.body).toEqual({ error: "demo not found", code: "not_found" });
    expect((await call("GET", `/try/inbox/${demo.inbox_id}/emails`, { actor: null })).status).toBe(404);
  });

  it("when a demo inbox's TTL lapses, then the cleanup worker removes it like any other and SMTP refuses it", async () => {
    const demo = (await createDemo(newIp())).body;
    now += 601_000;
    await service.cleanup.runNow();
    await waitFor(() => events.find((e) => e.type === "inbox.expired" && e.data.inbox_id === demo.inbox_id), { what: "inbox.expired" });
    expect((await call("GET", `/try/inbox/${demo.inbox_id}/emails`, { actor: null })).status).toBe(404);
    await expect(mailer().sendMail({ from: "a@example.org", to: demo.address, subject: "late", text: "x" })).rejects.toMatchObject({
      responseCode: 550,
    });
  });
});
