import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcName } from "@burnbox/contracts";
import { publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
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
import { startDeliveryWorker } from "../src/workers/delivery.worker";
import { emailReceivedEvent, startDispatcherInfra } from "./factories";

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A local receiver answering `answer(n)` to its n-th request (1-based). */
async function receiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = answer(received.length);
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    url: `http://localhost:${port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe("redelivering a webhook delivery, on real Postgres and NATS", () => {
  const ns = uniqueNamespace("whr");
  const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
  let infra: Infra;
  let service: RunningService;
  let call: ReturnType<typeof serviceClient>;
  let rpc: { stop(): Promise<void> };
  const lead = makeActor();
  const member = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const otherTeamId = randomUUID();
  const teams = new Set<string>([teamId, otherTeamId]);

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
        if (!teams.has(req.team_id ?? "")) return { allowed: false, reason: "team_not_found" };
        if (req.actor.user_id === lead.user_id) return { allowed: true, reason: null };
        if (req.actor.user_id === member.user_id)
          return { allowed: req.permission.endsWith(".view"), reason: req.permission.endsWith(".view") ? null : "missing_permission" };
        return { allowed: false, reason: "not_member" };
      },
      infra.logger,
    );
    service = await startService(config, infra);
    call = serviceClient(`http://127.0.0.1:${service.port}`);
  });

  afterAll(async () => {
    await service?.stop();
    await rpc?.stop();
    await deleteNamespaceStreams(infra.nc, ns);
    await infra?.close();
    await dropDatabase(dbUrl);
  });

  const hooks = (team = teamId) => `/orgs/${orgId}/teams/${team}/webhooks`;
  const redeliver = (hookId: string, deliveryId: string, actor = lead, team = teamId) =>
    call<{ delivery_id?: string; code?: string; error?: string }>("POST", `${hooks(team)}/${hookId}/deliveries/${deliveryId}/redeliver`, {
      actor,
    });

  async function hookWithDelivery(answer?: (n: number) => number, team = teamId) {
    const rx = await receiver(answer);
    const res = await call<{ id: string; secret: string }>("POST", hooks(team), {
      actor: lead,
      body: { url: rx.url, events: ["email.received"] },
    });
    expect(res.status).toBe(201);
    await publishEvent(infra.js, ns, emailReceivedEvent({ orgId, teamId: team }));
    return { rx, hook: res.body };
  }

  /** The delivery once its series has ended. */
  const settled = (webhookId: string) =>
    waitFor(
      async () => {
        const row = await service.db.delivery.findFirst({ where: { webhookId } });
        return row && row.status !== "pending" ? row : null;
      },
      { what: "the delivery to settle" },
    );

  it("when a delivered event is redelivered, then the same body goes out under the same delivery id, signed, logged as a new series and audited", async () => {
    const { rx, hook } = await hookWithDelivery();
    const first = await settled(hook.id);
    expect(first.status).toBe("succeeded");

    const res = await redeliver(hook.id, first.id);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ delivery_id: first.id });
    const again = await settled(hook.id);
    expect([again.status, again.attempts]).toEqual(["succeeded", 1]);
    expect(rx.received).toHaveLength(2);
    const [a, b] = rx.received as [Received, Received];
    expect(b.raw).toBe(a.raw);
    expect(b.headers["x-service-delivery-id"]).toBe(first.id);
    expect(b.headers["x-service-signature"]).toBe(createHmac("sha256", hook.secret).update(b.raw).digest("hex"));
    expect(Number(b.headers["x-service-timestamp"])).toBeGreaterThanOrEqual(Number(a.headers["x-service-timestamp"]));

    const log = await service.db.deliveryAttempt.findMany({ where: { deliveryId: first.id }, orderBy: { createdAt: "asc" } });
    expect(log.map((l) => [l.attempt, l.success])).toEqual([
      [1, true],
      [1, true],
    ]);
    const audit = (await service.db.outboxEvent.findMany({ orderBy: { createdAt: "asc" } }))
      .map((r) => r.payload as { type: string; data: { action: string; target_id: string; actor_user_id: string; metadata: object } })
      .filter((p) => p.type === "audit.recorded" && p.data.action === "webhook.redelivered" && p.data.target_id === hook.id);
    expect(audit.map((p) => [p.data.actor_user_id, p.data.metadata])).toEqual([
      [lead.user_id, { delivery_id: first.id, previous_status: "succeeded" }],
    ]);
    await rx.close();
  });

  it("when a redelivery fails, then it is retried under the schedule and a final failure raises failure_count", async () => {
    // the first series succeeds, every attempt of the redelivery fails
    const { rx, hook } = await hookWithDelivery((n) => (n === 1 ? 200 : 500));
    const first = await settled(hook.id);
    expect((await redeliver(hook.id, first.id)).status).toBe(202);
    const again = await waitFor(
      async () => {
        const row = await service.db.delivery.findUnique({ where: { id: first.id } });
        return row?.status === "failed" ? row : null;
      },
      { what: "the redelivery to fail", timeoutMs: 10_000 },
    );
    expect(again.attempts).toBe(3);
    const log = await service.db.deliveryAttempt.findMany({ where: { deliveryId: first.id }, orderBy: { createdAt: "asc" } });
    expect(log.map((l) => [l.attempt, l.success, l.responseStatus])).toEqual([
      [1, true, 200],
      [1, false, 500],
      [2, false, 500],
      [3, false, 500],
    ]);
    // 300 ms then 1.5 s between the failed attempts (retry base 300ms)
    const gaps = [log[2]!.createdAt.getTime() - log[1]!.createdAt.getTime(), log[3]!.createdAt.getTime() - log[2]!.createdAt.getTime()];
    expect(gaps[0]).toBeGreaterThanOrEqual(300);
    expect(gaps[1]).toBeGreaterThanOrEqual(1500);
    expect((await service.db.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failureCount).toBe(1);
    expect(new Set(rx.received.map((r) => r.headers["x-service-delivery-id"]))).toEqual(new Set([first.id]));
    await rx.close();
  });

  it("when the delivery's series is in flight or its webhook is disabled, then 409 and nothing is queued", async () => {
    // 500 first: the series waits for its retry while we ask
    const { rx, hook } = await hookWithDelivery((n) => (n === 1 ? 500 : 200));
    const pending = await waitFor(
      async () => {
        const row = await service.db.delivery.findFirst({ where: { webhookId: hook.id } });
        return row && row.attempts === 1 && row.status === "pending" ? row : null;
      },
      { what: "the first attempt to fail", intervalMs: 10 },
    );
    const busy = await redeliver(hook.id, pending.id);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("conflict");
    expect(busy.body.error).toMatch(/in flight/);
    const done = await settled(hook.id);
    expect([done.status, done.attempts]).toEqual(["succeeded", 2]);

    expect((await call("PATCH", `${hooks()}/${hook.id}`, { actor: lead, body: { active: false } })).status).toBe(200);
    const off = await redeliver(hook.id, done.id);
    expect(off.status).toBe(409);
    expect(off.body.error).toMatch(/disabled/);
    expect((await service.db.delivery.findUniqueOrThrow({ where: { id: done.id } })).status).toBe("succeeded");
    expect(rx.received).toHaveLength(2);
    await rx.close();
  });

  it("when the delivery is unknown, another webhook's or another team's, then 404 like an unknown id; without the permission 403", async () => {
    const mine = await hookWithDelivery();
    const theirs = await hookWithDelivery(undefined, otherTeamId);
    const mineDelivery = await settled(mine.hook.id);
    const theirDelivery = await settled(theirs.hook.id);
    const unknown = await redeliver(mine.hook.id, randomUUID());
    expect(unknown.status).toBe(404);
    // another team's delivery through my webhook answers like an unknown delivery
    const foreignDelivery = await redeliver(mine.hook.id, theirDelivery.id);
    expect([foreignDelivery.status, foreignDelivery.body]).toEqual([404, unknown.body]);
    // their webhook in my team's path answers like an unknown webhook
    const unknownHook = await redeliver(randomUUID(), theirDelivery.id);
    const foreignHook = await redeliver(theirs.hook.id, theirDelivery.id);
    expect([foreignHook.status, foreignHook.body]).toEqual([404, unknownHook.body]);
    // my webhook asked for under another team of the org
    expect((await redeliver(mine.hook.id, mineDelivery.id, lead, otherTeamId)).status).toBe(404);
    expect((await redeliver(mine.hook.id, mineDelivery.id, makeActor())).status).toBe(404);
    expect((await redeliver(mine.hook.id, mineDelivery.id, member)).status).toBe(403);
    expect((await redeliver(mine.hook.id, "not-a-uuid")).status).toBe(400);
    expect(mine.rx.received).toHaveLength(1);
    expect(theirs.rx.received).toHaveLength(1);
    await Promise.all([mine.rx.close(), theirs.rx.close()]);
  });

  it("when the delivery worker is down at redelivery time, then the redelivery waits in the table and a new worker sends it", async () => {
    const { rx, hook } = await hookWithDelivery();
    const first = await settled(hook.id);
    await service.workers.delivery.stop();
    const res = await redeliver(hook.id, first.id);
    expect(res.status).toBe(202);
    const row = await service.db.delivery.findUniqueOrThrow({ where: { id: first.id } });
    expect([row.status, row.attempts, row.completedAt]).toEqual(["pending", 0, null]);
    const restarted = startDeliveryWorker(service.deps, infra.logger);
    try {
      const again = await settled(hook.id);
      expect([again.status, again.attempts]).toEqual(["succeeded", 1]);
      expect(rx.received.map((r) => r.headers["x-service-delivery-id"])).toEqual([first.id, first.id]);
    } finally {
      await restarted.stop();
    }
    await rx.close();
  });
});
