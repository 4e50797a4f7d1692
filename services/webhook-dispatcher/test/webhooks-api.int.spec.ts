import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { RpcName, subjects } from "@burnbox/contracts";
import { jetstreamManager, publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import type { DispatcherConfig } from "../src/config";
import { dispatchConsumerName } from "../src/messaging/dispatch.consumer";
import { emailReceivedEvent, loadTestConfig } from "./factories";

interface Hook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
}
interface Entry {
  delivery_id: string;
  attempt: number;
  success: boolean;
  response_status: number | null;
  created_at: string;
}

describe("webhook management API on real Postgres and NATS", () => {
  let t: TestService<DispatcherConfig, RunningService>;
  let infra: Infra;
  let call: TestService<DispatcherConfig, RunningService>["call"];
  let rpc: { stop(): Promise<void> };
  const lead = makeActor();
  const viewer = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const otherTeam = randomUUID();
  const statuses: number[] = [];
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
    t = await startTestService({
      prefix: "wha",
      load: loadTestConfig,
      start: (c, i) => startService(c, i),
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ webhooks: { unsafe_allowed_targets: ["localhost"] }, delivery: { retry_base: "200ms", poll_interval: "50ms" } }),
    });
    ({ infra, call } = t);
    rpc = serveRpc(
      infra.nc,
      t.ns,
      RpcName.authorize,
      async (req) => {
        if (req.team_id !== teamId && req.team_id !== otherTeam) return { allowed: false, reason: "team_not_found" };
        if (req.actor.user_id === lead.user_id) return { allowed: true, reason: null };
        if (req.actor.user_id === viewer.user_id && req.permission.endsWith(".view")) return { allowed: true, reason: null };
        return { allowed: false, reason: "missing_permission" };
      },
      infra.logger,
    );
  });

  afterAll(async () => {
    await rpc?.stop();
    await t?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const base = (team = teamId) => `/orgs/${orgId}/teams/${team}/webhooks`;
  const create = async (team = teamId, events = ["email.received"]) =>
    (await call<Hook>("POST", base(team), { actor: lead, body: { url: `http://localhost:${port}/h`, events } })).body;
  const email = () => emailReceivedEvent({ orgId, teamId });

  it("lists the team's webhooks newest first, paginated; 400 outside 1..100; a viewer may list but not change", async () => {
    const a = await create();
    const b = await create();
    const page = await call<{ data: Hook[]; total: number; per_page: number }>("GET", `${base()}?per_page=1`, { actor: viewer });
    expect(page.status).toBe(200);
    expect(page.body.per_page).toBe(1);
    expect(page.body.total).toBeGreaterThanOrEqual(2);
    expect(page.body.data[0]?.id).toBe(b.id);
    expect(page.body.data[0]).not.toHaveProperty("secret");
    for (const bad of ["per_page=0", "per_page=101", "page=0", "page=x"])
      expect((await call("GET", `${base()}?${bad}`, { actor: lead })).status).toBe(400);
    expect((await call("PATCH", `${base()}/${a.id}`, { actor: viewer, body: { active: false } })).status).toBe(403);
  });

  it("patches url, events and active under the same URL rules; another team's webhook is not found", async () => {
    const hook = await create();
    const refused = await call<{ code: string }>("PATCH", `${base()}/${hook.id}`, {
      actor: lead,
      body: { url: "http://[::ffff:10.0.0.1]/x" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_error");
    expect((await call("PATCH", `${base()}/${hook.id}`, { actor: lead, body: {} })).status).toBe(400);
    const ok = await call<Hook>("PATCH", `${base()}/${hook.id}`, {
      actor: lead,
      body: { events: ["inbox.created", "inbox.expired"], active: false },
    });
    expect(ok.body).toMatchObject({ events: ["inbox.created", "inbox.expired"], active: false });
    expect((await call("PATCH", `${base(otherTeam)}/${hook.id}`, { actor: lead, body: { active: true } })).status).toBe(404);
    expect((await call("GET", `${base(otherTeam)}/${hook.id}/stats`, { actor: lead })).status).toBe(404);
    await call("DELETE", `${base()}/${hook.id}`, { actor: lead });
  });

  it("logs every attempt newest first and reports exact stats; an inactive webhook gets nothing", async () => {
    // only this webhook of the team is active and subscribed to email.received
    const existing = await call<{ data: Hook[] }>("GET", `${base()}?per_page=100`, { actor: lead });
    for (const h of existing.body.data) await call("PATCH", `${base()}/${h.id}`, { actor: lead, body: { active: false } });
    const hook = await create();
    statuses.push(500);
    hits = 0;
    await publishEvent(infra.js, t.ns, email());
    const log = await waitFor(
      async () => {
        const r = await call<{ data: Entry[]; total: number }>("GET", `${base()}/${hook.id}/deliveries`, { actor: viewer });
        return r.body.total === 2 ? r.body : null;
      },
      { what: "two attempts" },
    );
    expect(log.data.map((e) => [e.attempt, e.success, e.response_status])).toEqual([
      [2, true, 200],
      [1, false, 500],
    ]);
    expect(new Set(log.data.map((e) => e.delivery_id)).size).toBe(1);
    const stats = await call<Record<string, unknown>>("GET", `${base()}/${hook.id}/stats`, { actor: viewer });
    expect(stats.body).toMatchObject({
      total_deliveries: 2,
      success_count: 1,
      failure_count: 1,
      success_rate: 50,
      last_delivery_at: log.data[0]?.created_at,
    });
    expect(typeof stats.body.avg_response_time_ms).toBe("number");

    await call("PATCH", `${base()}/${hook.id}`, { actor: lead, body: { active: false } });
    hits = 0;
    const next = email();
    await publishEvent(infra.js, t.ns, next);
    // once the consumer has acknowledged everything (an event of a team with no active subscriber
    // is answered by one read, with no claim), no delivery can follow
    const jsm = await jetstreamManager(infra.nc);
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(subjects(t.ns).stream, dispatchConsumerName("email.received"));
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { what: "the event to be processed" },
    );
    expect(await t.service.db.delivery.count({ where: { webhookId: hook.id, eventId: next.id } })).toBe(0);
    expect(hits).toBe(0);
  });

  it("deletes a webhook: 200 with a message, then 404", async () => {
    const hook = await create();
    const del = await call<{ message: string }>("DELETE", `${base()}/${hook.id}`, { actor: lead });
    expect(del.status).toBe(200);
    expect(del.body.message).toBeTruthy();
    expect((await call("DELETE", `${base()}/${hook.id}`, { actor: lead })).status).toBe(404);
    expect((await call("GET", `${base()}/${hook.id}/deliveries`, { actor: lead })).status).toBe(404);
  });
});
