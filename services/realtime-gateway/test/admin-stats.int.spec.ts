import { randomUUID } from "node:crypto";
import path from "node:path";
import { WebSocket } from "ws";
import { RpcName, type Actor, type AdminStats } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadRealtimeConfig, type RealtimeConfig } from "../src/config";

type Frame = { type: string; data: AdminStats };

const INTERVAL_MS = 300;

describe("/ws/admin-stats on real Redis and NATS", () => {
  let t: TestService<RealtimeConfig, RunningService>;
  let tenancy: { stop(): Promise<void> };
  let requests = 0;
  const admin = makeActor({ is_system_admin: true });

  beforeAll(async () => {
    t = await startTestService({
      prefix: "rts",
      load: (o) => loadRealtimeConfig({}, o),
      start: startService,
      redis: true,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ ws: { admin_stats_interval_ms: INTERVAL_MS } }),
    });
    // tenancy's side: each request answers with figures that tell the requests apart
    tenancy = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.adminStats,
      () =>
        Promise.resolve({
          total_emails: ++requests,
          active_inboxes: 2,
          total_domains: 3,
          total_users: 4,
          total_teams: 5,
          storage_used_bytes: 6,
        }),
      t.infra.logger,
    );
  });
  afterAll(async () => {
    await tenancy?.stop();
    await t?.stop();
  });

  const ticket = async (actor: Actor) => (await t.call<{ ticket: string }>("POST", "/ws/ticket", { actor })).body.ticket;

  /** Opens the stream; resolves with the socket and its frames, or with the HTTP status that refused it. */
  const open = (path: string, tk: string) =>
    new Promise<{ ws?: WebSocket; frames: Frame[]; status?: number }>((resolve) => {
      const frames: Frame[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${t.service.port}/api/v1/ws/${path}?ticket=${tk}`);
      ws.on("message", (m: Buffer) => frames.push(JSON.parse(m.toString("utf8")) as Frame));
      ws.on("open", () => resolve({ ws, frames }));
      ws.on("unexpected-response", (_req, res) => resolve({ frames, status: res.statusCode ?? 0 }));
      ws.on("error", () => undefined);
    });

  it("when a system admin opens the stream, then a frame with the 2.7 fields comes at once and then every interval", async () => {
    const s = await open("admin-stats", await ticket(admin));
    expect(s.ws).toBeDefined();
    await waitFor(() => s.frames.length >= 1, { what: "the first frame", timeoutMs: INTERVAL_MS });
    expect(s.frames[0]?.type).toBe("admin.stats");
    expect(Object.keys(s.frames[0]!.data).sort()).toEqual(
      ["active_inboxes", "storage_used_bytes", "total_domains", "total_emails", "total_teams", "total_users"].sort(),
    );
    await waitFor(() => s.frames.length >= 3, { what: "two more frames", timeoutMs: 5 * INTERVAL_MS });
    // each tick fetched anew: the figures moved on
    expect(s.frames[2]!.data.total_emails).toBeGreaterThan(s.frames[0]!.data.total_emails);
    s.ws?.close();
  });

  it("when five admins watch, then the replica makes one fetch per interval for all of them", async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, async () => open("admin-stats", await ticket(admin))));
    await waitFor(() => sockets.every((s) => s.frames.length >= 4), { what: "four frames on every socket", timeoutMs: 10 * INTERVAL_MS });
    const before = requests;
    const framesBefore = sockets[0]!.frames.length;
    await waitFor(() => sockets[0]!.frames.length >= framesBefore + 4, { what: "four more ticks", timeoutMs: 10 * INTERVAL_MS });
    const ticks = sockets[0]!.frames.length - framesBefore;
    // one request per tick shared by the five sockets (not five), give or take the tick in progress
    expect(requests - before).toBeLessThanOrEqual(ticks + 1);
    expect(t.service.deps.adminStats.feed.fetches).toBeLessThanOrEqual(requests);
    // every socket got the same figures on a tick
    const last = sockets.map((s) => s.frames[framesBefore + 2]?.data.total_emails);
    expect(new Set(last).size).toBe(1);
    for (const s of sockets) s.ws?.close();
  });

  it("when the ticket is a normal user's, an admin's API key's, reused or unknown, then the upgrade is refused", async () => {
    expect((await open("admin-stats", await ticket(makeActor()))).status).toBe(403);
    const key = { ...admin, api_key: { id: randomUUID(), team_id: randomUUID(), scopes: ["team.emails.view", "team.analytics.view"] } };
    expect((await open("admin-stats", await ticket(key))).status).toBe(403);
    const once = await ticket(admin);
    const first = await open("admin-stats", once);
    first.ws?.close();
    expect((await open("admin-stats", once)).status).toBe(401);
    expect((await open("admin-stats", randomUUID())).status).toBe(401);
  });

  it("when a ticket was taken with an API key, then the notification stream refuses it too", async () => {
    const user = makeActor();
    const key = { ...user, api_key: { id: randomUUID(), team_id: randomUUID(), scopes: ["team.emails.view"] } };
    expect((await open("notifications", await ticket(key))).status).toBe(403);
  });
});
