import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { RpcName, subjects } from "@burnbox/contracts";
import { newEvent, publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startDnsServer } from "../../tenancy/test/dns-server";
import { startService, type RunningService } from "../src/app";
import type { DispatcherConfig } from "../src/config";
import { REMOVAL_BATCH } from "../src/domain/tenants/remove-tenant-webhooks.use-case";
import { emailReceivedEvent, loadTestConfig } from "./factories";

/** A local receiver that counts what it gets. */
async function receiver() {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { received, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The dispatcher on real Postgres and NATS with a DNS server of the test's own (the one tenancy's
 * domain verification tests use): tenancy's removals and moves, and the dispatch-time address
 * check resolving through `dns.servers`.
 */
describe("webhook-dispatcher: tenancy's removals and dns.servers", () => {
  let t: TestService<DispatcherConfig, RunningService>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let rpc: { stop(): Promise<void> };
  const lead = makeActor();

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestService({
      prefix: "whdcas",
      load: loadTestConfig,
      // no resolver injected: the service builds its own from dns.servers
      start: (c, i) => startService(c, i),
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({
        dns: { servers: [dns.address], timeout_ms: 2000 },
        // the receivers listen on loopback: exempt it, as the local test setup does
        webhooks: { unsafe_allowed_targets: ["127.0.0.1/32"] },
        defaults: { webhook_timeout: "1s", webhook_max_retries: 1 },
        delivery: { retry_base: "200ms", poll_interval: "50ms" },
      }),
    });
    rpc = serveRpc(t.infra.nc, t.ns, RpcName.authorize, async () => ({ allowed: true, reason: null }), t.infra.logger);
  });

  afterAll(async () => {
    await rpc?.stop();
    await t?.stop();
    await dns?.close();
  });

  const team = () => ({ orgId: randomUUID(), teamId: randomUUID() });
  const createHook = (scope: { orgId: string; teamId: string }, url: string) =>
    t.call<{ id: string; code?: string }>("POST", `/orgs/${scope.orgId}/teams/${scope.teamId}/webhooks`, {
      actor: lead,
      body: { url, events: ["email.received"] },
    });
  const db = () => t.service.db;
  const attempts = (webhookId: string) =>
    waitFor(
      async () => {
        const rows = await db().deliveryAttempt.findMany({ where: { webhookId } });
        return rows.length > 0 ? rows : null;
      },
      { what: "a delivery attempt" },
    );

  describe("dispatch-time DNS through dns.servers", () => {
    it("when a webhook host resolves (only in the configured DNS) to an allowed address, then the delivery reaches it", async () => {
      const rx = await receiver();
      const host = `hooks-${randomUUID().slice(0, 8)}.dns-test.example`;
      dns.zones.set(host, { a: ["127.0.0.1"] });
      const scope = team();
      const hook = await createHook(scope, `http://${host}:${rx.port}/hook`);
      expect(hook.status).toBe(201);
      await publishEvent(t.infra.js, t.ns, emailReceivedEvent(scope));
      const [attempt] = await attempts(hook.body.id);
      expect(attempt).toMatchObject({ success: true, responseStatus: 200 });
      expect(rx.received).toHaveLength(1);
      await rx.close();
    });

    it("when the configured DNS answers a private address, then the attempt is refused and nothing is sent", async () => {
      const rx = await receiver();
      const host = `inner-${randomUUID().slice(0, 8)}.dns-test.example`;
      dns.zones.set(host, { a: ["10.1.2.3"] });
      const scope = team();
      const hook = await createHook(scope, `http://${host}:${rx.port}/hook`);
      expect(hook.status).toBe(201);
      await publishEvent(t.infra.js, t.ns, emailReceivedEvent(scope));
      const [attempt] = await attempts(hook.body.id);
      expect(attempt?.success).toBe(false);
      expect(attempt?.error).toContain("10.1.2.3");
      expect(rx.received).toHaveLength(0);
      await rx.close();
    });

    it("when the configured DNS knows no such name, then the attempt fails (the system's resolvers are not asked)", async () => {
      const scope = team();
      const hook = await createHook(scope, `http://unknown-${randomUUID().slice(0, 8)}.dns-test.example/hook`);
      await publishEvent(t.infra.js, t.ns, emailReceivedEvent(scope));
      const [attempt] = await attempts(hook.body.id);
      expect(attempt).toMatchObject({ success: false, responseStatus: null });
    });
  });

  describe("org.deleted, team.deleted and team.transferred", () => {
    const handled = (eventId: string) =>
      waitFor(async () => (await db().processedEvent.count({ where: { eventId } })) > 0, { what: "event handled" });

    /** A webhook with a long delivery log, written straight to Postgres (a large team, quickly). */
    async function hookWithLog(scope: { orgId: string; teamId: string }, rows: number): Promise<string> {
      const hook = await createHook(scope, "https://hooks.example.com/x");
      expect(hook.status).toBe(201);
      await t.infra.pool!.query(
        `WITH d AS (
           INSERT INTO deliveries (id, webhook_id, event_id, event, body, status, attempts)
           SELECT gen_random_uuid(), $1, gen_random_uuid(), 'email.received', '{}', 'failed', 1 FROM generate_series(1, $2::int)
           RETURNING id)
         INSERT INTO delivery_attempts (id, webhook_id, delivery_id, event, attempt, success, response_time_ms)
         SELECT gen_random_uuid(), $1, id, 'email.received', 1, false, 5 FROM d`,
        [hook.body.id, rows],
      );
      return hook.body.id;
    }

    it("when a team is deleted, then its webhooks, deliveries and log go in batches, other teams keep theirs, and none is created again", async () => {
      const scope = team();
      const sibling = { orgId: scope.orgId, teamId: randomUUID() };
      const gone = await hookWithLog(scope, REMOVAL_BATCH + 50);
      const kept = await hookWithLog(sibling, 3);
      const event = newEvent("team.deleted", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
      await publishEvent(t.infra.js, t.ns, event);
      await handled(event.id);
      expect(await db().webhook.count({ where: { teamId: scope.teamId } })).toBe(0);
      expect(await db().delivery.count({ where: { webhookId: gone } })).toBe(0);
      expect(await db().deliveryAttempt.count({ where: { webhookId: gone } })).toBe(0);
      expect(await db().deliveryAttempt.count({ where: { webhookId: kept } })).toBe(3);
      const list = await t.call<{ data: unknown[] }>("GET", `/orgs/${scope.orgId}/teams/${scope.teamId}/webhooks`, { actor: lead });
      expect(list.body.data).toEqual([]);
      expect((await createHook(scope, "https://hooks.example.com/again")).status).toBe(404);
    });

    it("when an org is deleted, then every team's webhooks go; a redelivery changes nothing", async () => {
      const a = team();
      const b = { orgId: a.orgId, teamId: randomUUID() };
      await hookWithLog(a, 2);
      await hookWithLog(b, 2);
      const event = newEvent("org.deleted", { org_id: a.orgId, team_id: null, data: { org_id: a.orgId, team_ids: [a.teamId, b.teamId] } });
      await publishEvent(t.infra.js, t.ns, event);
      await handled(event.id);
      expect(await db().webhook.count({ where: { orgId: a.orgId } })).toBe(0);
      // republished as a new message (a fresh message id, past the stream's dedup): the consumer gets it again
      await t.infra.js.publish(subjects(t.ns).event(event.type), JSON.stringify(event), { msgID: randomUUID() });
      const sentinel = newEvent("org.deleted", { org_id: randomUUID(), team_id: null, data: { org_id: randomUUID(), team_ids: [] } });
      await publishEvent(t.infra.js, t.ns, sentinel);
      await handled(sentinel.id);
      expect(await db().processedEvent.count({ where: { eventId: event.id } })).toBe(1);
      expect((await createHook(b, "https://hooks.example.com/again")).status).toBe(404);
    });

    it("when a team moves to another org, then its webhooks are listed under the new org", async () => {
      const scope = team();
      const hook = await createHook(scope, "https://hooks.example.com/moving");
      const toOrg = randomUUID();
      const event = newEvent("team.transferred", {
        org_id: scope.orgId,
        team_id: scope.teamId,
        data: { team_id: scope.teamId, from_org_id: scope.orgId, to_org_id: toOrg },
      });
      await publishEvent(t.infra.js, t.ns, event);
      await handled(event.id);
      const moved = await t.call<{ data: Array<{ id: string }> }>("GET", `/orgs/${toOrg}/teams/${scope.teamId}/webhooks`, { actor: lead });
      expect(moved.body.data.map((h) => h.id)).toEqual([hook.body.id]);
      const old = await t.call<{ data: unknown[] }>("GET", `/orgs/${scope.orgId}/teams/${scope.teamId}/webhooks`, { actor: lead });
      expect(old.body.data).toEqual([]);
    });
  });
});
