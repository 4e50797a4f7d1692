import { randomUUID } from "node:crypto";
import path from "node:path";
import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, startTestService, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import type { DispatcherConfig } from "../src/config";
import { loadTestConfig } from "./factories";

interface Entry {
  id: string;
  delivery_id: string;
  attempt: number;
  success: boolean;
  response_status: number | null;
  response_time_ms: number;
  error: string | null;
  created_at: string;
}

/** Audit events of the management routes, and stats/log figures from a delivery log written by hand. */
describe("webhook audit events and exact delivery figures", () => {
  let t: TestService<DispatcherConfig, RunningService>;
  let rpc: { stop(): Promise<void> };
  const lead = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const base = `/orgs/${orgId}/teams/${teamId}/webhooks`;

  beforeAll(async () => {
    t = await startTestService({
      prefix: "whs",
      load: loadTestConfig,
      start: (c, i) => startService(c, i),
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ webhooks: { unsafe_allowed_targets: ["localhost"] } }),
    });
    rpc = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.authorize,
      async (req) =>
        req.team_id === teamId && req.actor.user_id === lead.user_id
          ? { allowed: true, reason: null }
          : { allowed: false, reason: "not_member" },
      t.infra.logger,
    );
  });

  afterAll(async () => {
    await rpc?.stop();
    await t?.stop();
  });

  const db = () => t.service.db;
  const create = async () =>
    (await t.call<{ id: string }>("POST", base, { actor: lead, body: { url: "http://localhost:9/h", events: ["email.received"] } })).body;

  it("writes webhook.updated and webhook.deleted to the outbox, none for a refused PATCH, and DELETE drops the log", async () => {
    const hook = await create();
    expect((await t.call("PATCH", `${base}/${hook.id}`, { actor: lead, body: { url: "http://10.1.2.3/x" } })).status).toBe(400);
    const ok = await t.call("PATCH", `${base}/${hook.id}`, { actor: lead, body: { url: "https://example.com/new", active: false } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ url: "https://example.com/new", active: false });
    const deliveryId = randomUUID();
    await db().delivery.create({
      data: { id: deliveryId, webhookId: hook.id, eventId: randomUUID(), event: "email.received", body: "{}", status: "failed" },
    });
    await db().deliveryAttempt.create({
      data: { id: randomUUID(), webhookId: hook.id, deliveryId, event: "email.received", attempt: 1, success: false, responseTimeMs: 5 },
    });
    expect((await t.call("DELETE", `${base}/${hook.id}`, { actor: lead })).body).toEqual({ message: expect.any(String) as string });

    const audit = (await db().outboxEvent.findMany({ orderBy: { createdAt: "asc" } }))
      .map((r) => r.payload as { type: string; data: { action: string; target_id: string; actor_user_id: string; metadata: object } })
      .filter((p) => p.type === "audit.recorded" && p.data.target_id === hook.id);
    expect(audit.map((p) => p.data.action)).toEqual(["webhook.created", "webhook.updated", "webhook.deleted"]);
    expect(audit.every((p) => p.data.actor_user_id === lead.user_id)).toBe(true);
    expect(audit[1]?.data.metadata).toEqual({ fields: ["url", "active"] });
    expect(await db().delivery.count({ where: { webhookId: hook.id } })).toBe(0);
    expect(await db().deliveryAttempt.count({ where: { webhookId: hook.id } })).toBe(0);
  });

  it("counts stats per attempt with exact figures, and pages the log newest first", async () => {
    const hook = await create();
    const empty = await t.call("GET", `${base}/${hook.id}/stats`, { actor: lead });
    expect(empty.body).toEqual({
      total_deliveries: 0,
      success_count: 0,
      failure_count: 0,
      success_rate: 0,
      avg_response_time_ms: 0,
      last_delivery_at: null,
    });

    // one delivery: 500 (100 ms), timeout (250 ms), 200 (51 ms), one second apart
    const deliveryId = randomUUID();
    const t0 = Date.parse("2026-01-02T03:04:05.000Z");
    await db().delivery.create({
      data: { id: deliveryId, webhookId: hook.id, eventId: randomUUID(), event: "email.received", body: "{}", status: "succeeded" },
    });
    const rows: Array<[number, boolean, number | null, number, string | null]> = [
      [1, false, 500, 100, "HTTP 500"],
      [2, false, null, 250, "timed out after 250 ms"],
      [3, true, 200, 51, null],
    ];
    for (const [attempt, success, responseStatus, responseTimeMs, error] of rows) {
      await db().deliveryAttempt.create({
        data: {
          id: randomUUID(),
          webhookId: hook.id,
          deliveryId,
          event: "email.received",
          attempt,
          success,
          responseStatus,
          responseTimeMs,
          error,
          createdAt: new Date(t0 + attempt * 1000),
        },
      });
    }

    const stats = await t.call("GET", `${base}/${hook.id}/stats`, { actor: lead });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      total_deliveries: 3,
      success_count: 1,
      failure_count: 2,
      success_rate: 33.33,
      avg_response_time_ms: 134, // (100 + 250 + 51) / 3 = 133.67
      last_delivery_at: new Date(t0 + 3000).toISOString(),
    });

    const page1 = await t.call<{ data: Entry[]; total: number; page: number; per_page: number; total_pages: number }>(
      "GET",
      `${base}/${hook.id}/deliveries?per_page=2`,
      { actor: lead },
    );
    expect(page1.body).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(page1.body.data.map((e) => [e.attempt, e.success, e.response_status, e.response_time_ms, e.error])).toEqual([
      [3, true, 200, 51, null],
      [2, false, null, 250, "timed out after 250 ms"],
    ]);
    expect(page1.body.data[0]).toMatchObject({ webhook_id: hook.id, delivery_id: deliveryId, event: "email.received" });
    const page2 = await t.call<{ data: Entry[] }>("GET", `${base}/${hook.id}/deliveries?per_page=2&page=2`, { actor: lead });
    expect(page2.body.data.map((e) => [e.attempt, e.created_at])).toEqual([[1, new Date(t0 + 1000).toISOString()]]);
    const beyond = await t.call<{ data: Entry[]; total: number }>("GET", `${base}/${hook.id}/deliveries?page=5`, { actor: lead });
    expect(beyond.body).toMatchObject({ data: [], total: 3 });
  });
});
