import { randomUUID } from "node:crypto";
import path from "node:path";
import { WebSocket } from "ws";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { cuttableRelay, LogCapture, makeActor, startTestService, testInfra, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadRealtimeConfig, type RealtimeConfig } from "../src/config";
import { mailEvent, publishMail, serveInboxStandIns } from "./mail-stand-ins";

interface Frame {
  type: string;
  data: Record<string, unknown>;
  id?: string;
}

/**
 * The live subjects are core NATS, which keeps nothing for a subscriber that is away: when this
 * replica's connection drops and comes back, each open socket is sent what it missed from the
 * events stream, then the live frames, none twice and none missing.
 */
describe("inbox streams across a NATS reconnect of their realtime replica", () => {
  let relay: Awaited<ReturnType<typeof cuttableRelay>>;
  let t: TestService<RealtimeConfig, RunningService>;
  let direct: Infra;
  let rpcs: Array<{ stop(): Promise<void> }> = [];
  const statuses: string[] = [];
  const member = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    relay = await cuttableRelay(new URL(testInfra.natsUrl));
    t = await startTestService({
      prefix: "rtl",
      load: (o) => loadRealtimeConfig({}, o),
      start: startService,
      redis: true,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ nats: { url: relay.url } }),
    });
    void (async () => {
      for await (const s of t.infra.nc.status()) statuses.push(s.type);
    })();
    // the publisher (the intake's part) and the access replies on a connection straight to the server: they stay up
    direct = await startInfra({
      config: { ...t.config, nats: { ...t.config.nats, url: testInfra.natsUrl } },
      logDestination: new LogCapture(),
    });
    rpcs = serveInboxStandIns(direct.nc, t.ns, { orgId, teamId, assignmentId, member }, direct.logger);
  });

  afterAll(async () => {
    relay?.restore();
    await Promise.all(rpcs.map((r) => r.stop()));
    await direct?.close();
    await t?.stop();
    await relay?.close();
  });

  const open = async (inboxId: string) => {
    const ticket = (await t.call<{ ticket: string }>("POST", "/ws/ticket", { actor: member })).body.ticket;
    return new Promise<{ ws: WebSocket; frames: Frame[] }>((resolve, reject) => {
      const frames: Frame[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${t.service.port}/api/v1/ws/inboxes/${inboxId}?ticket=${ticket}`);
      ws.on("message", (m: Buffer) => frames.push(JSON.parse(m.toString("utf8")) as Frame));
      ws.on("open", () => resolve({ ws, frames }));
      ws.on("error", reject);
    });
  };
  const mail = (inboxId: string, subject: string) => publishMail(direct, t.ns, mailEvent({ orgId, teamId, inboxId, subject }));
  const subjects = (frames: Frame[]) => frames.map((f) => (f.type === "email.received" ? String(f.data.subject) : f.type));

  it("when mail arrives while the replica's connection is down, then after the reconnect each socket gets what it missed from the stream, then live mail, none twice", async () => {
    const inboxId = randomUUID();
    const seen = await open(inboxId);
    await mail(inboxId, "m0");
    await mail(inboxId, "m1");
    await waitFor(() => seen.frames.length === 2, { what: "m0, m1 live" });
    // a socket that was sent nothing yet: caught up from when it was added
    const fresh = await open(inboxId);

    const before = statuses.length;
    relay.cut();
    await waitFor(() => statuses.slice(before).includes("disconnect") || undefined, { what: "the replica disconnected" });
    await mail(inboxId, "m2");
    await mail(randomUUID(), "another inbox's");
    await mail(inboxId, "m3");
    relay.restore();
    await waitFor(() => (seen.frames.length === 4 && fresh.frames.length === 2) || undefined, {
      what: "the missed frames",
      timeoutMs: 20_000,
    });
    expect(statuses.slice(before)).toContain("reconnect");

    await mail(inboxId, "m4");
    await waitFor(() => (seen.frames.length >= 5 && fresh.frames.length >= 3) || undefined, { what: "the live frame" });
    expect(subjects(seen.frames)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(subjects(fresh.frames)).toEqual(["m2", "m3", "m4"]);
    expect(new Set(seen.frames.map((f) => f.id)).size).toBe(5);
    seen.ws.close();
    fresh.ws.close();
  });
});
