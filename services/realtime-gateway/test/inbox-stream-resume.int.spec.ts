import { randomUUID } from "node:crypto";
import path from "node:path";
import { WebSocket } from "ws";
import type { Infra } from "@burnbox/service-kit/runtime";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadRealtimeConfig, type RealtimeConfig } from "../src/config";
import type { EmailReplaySource } from "../src/domain/inbox-streams/email-replay";
import { jetStreamEmailReplay } from "../src/messaging/email-replay";
import { mailEvent, publishMail, serveInboxStandIns } from "./mail-stand-ins";

/** The replay window of this suite: at most this many of an inbox's frames (ws.replay_max_events). */
const MAX_EVENTS = 5;

interface Frame {
  type: string;
  data: Record<string, unknown>;
  id?: string;
}

/** A promise the test resolves itself: holds the replay until the test has done its part. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("a resumed inbox stream (last_event_id), on real Redis, NATS and Postgres", () => {
  let t: TestService<RealtimeConfig, RunningService>;
  let ns: string;
  let infra: Infra;
  let service: RunningService;
  let rpcs: Array<{ stop(): Promise<void> }> = [];
  const member = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    t = await startTestService({
      prefix: "rtr",
      load: (o) => loadRealtimeConfig({}, o),
      start: startService,
      redis: true,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ ws: { replay_max_events: MAX_EVENTS } }),
    });
    ({ ns, infra, service } = t);
    rpcs = serveInboxStandIns(infra.nc, ns, { orgId, teamId, assignmentId, member }, infra.logger);
  });

  afterAll(async () => {
    await Promise.all(rpcs.map((r) => r.stop()));
    await t?.stop();
  });

  /** Publishes an email.received event for `inboxId`; resolves with its event id. */
  const mail = async (inboxId: string, subject: string): Promise<string> => {
    const event = mailEvent({ orgId, teamId, inboxId, subject });
    await publishMail(infra, ns, event);
    return event.id;
  };

  /** Opens an inbox stream (a new ticket each time); resolves with the socket and its frames, or the refusing status. */
  const open = async (inboxId: string, lastEventId?: string) => {
    const ticket = (await t.call<{ ticket: string }>("POST", "/ws/ticket", { actor: member })).body.ticket;
    const resume = lastEventId === undefined ? "" : `&last_event_id=${lastEventId}`;
    return new Promise<{ ws?: WebSocket; frames: Frame[]; status?: number }>((resolve) => {
      const frames: Frame[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${service.port}/api/v1/ws/inboxes/${inboxId}?ticket=${ticket}${resume}`);
      ws.on("message", (m: Buffer) => frames.push(JSON.parse(m.toString("utf8")) as Frame));
      ws.on("open", () => resolve({ ws, frames }));
      ws.on("unexpected-response", (_req, res) => resolve({ frames, status: res.statusCode ?? 0 }));
      ws.on("error", () => undefined);
    });
  };

  const subjects = (frames: Frame[]) => frames.map((f) => (f.type === "email.received" ? String(f.data.subject) : f.type));

  it("when a client resumes from the last id it saw, then it gets what it missed in order, then the live frames, none twice at the seam", async () => {
    const inboxId = randomUUID();
    // a socket that stays: it tells when a live frame has reached this replica
    const watcher = await open(inboxId);
    const first = await open(inboxId);
    await mail(inboxId, "m1");
    await waitFor(() => first.frames.length === 1, { what: "m1 on the first socket" });
    const lastSeen = first.frames[0]!.id!;
    expect(lastSeen).toMatch(/^[0-9a-f-]{36}$/);
    first.ws!.close();
    // missed while away; mail of another inbox in between is not this stream's
    await mail(inboxId, "m2");
    await mail(randomUUID(), "other inbox");
    await mail(inboxId, "m3");
    await waitFor(() => watcher.frames.length === 3, { what: "m2, m3 on the watcher" });

    // the replay is held before it reads (m4 reaches the socket live and is read too: sent once)
    // and after (m5 reaches it live only: sent after the replayed ones)
    const real = service.deps.replay;
    const beforeRead = gate();
    const afterRead = gate();
    const reading = gate();
    const read = gate();
    const held: EmailReplaySource = {
      since: (inbox, sinceMs) => real.since(inbox, sinceMs),
      missed: async (inbox, id) => {
        reading.open();
        await beforeRead.opened;
        const missed = await real.missed(inbox, id);
        read.open();
        await afterRead.opened;
        return missed;
      },
    };
    service.deps.replay = held;
    try {
      const resumed = await open(inboxId, lastSeen);
      await reading.opened;
      await mail(inboxId, "m4");
      await waitFor(() => watcher.frames.length === 4, { what: "m4 on the watcher" });
      beforeRead.open();
      await read.opened;
      await mail(inboxId, "m5");
      await waitFor(() => watcher.frames.length === 5, { what: "m5 on the watcher" });
      expect(resumed.frames).toEqual([]); // nothing goes out before the replay
      afterRead.open();
      await waitFor(() => resumed.frames.length === 4, { what: "the replayed and held frames" });
      await mail(inboxId, "m6");
      await waitFor(() => resumed.frames.length === 5 && watcher.frames.length === 6, { what: "m6, live" });
      expect(subjects(resumed.frames)).toEqual(["m2", "m3", "m4", "m5", "m6"]);
      // the same frames, ids included, as a socket that never left
      expect(resumed.frames).toEqual(watcher.frames.slice(1));
      resumed.ws!.close();
    } finally {
      service.deps.replay = real;
      watcher.ws!.close();
    }
  });

  it("when the id is unknown, another inbox's, or further back than the window's events, then the first frame is resync_required and live frames follow", async () => {
    const inboxId = randomUUID();
    const other = randomUUID();
    const otherId = await mail(other, "elsewhere");
    const watcher = await open(inboxId);
    const oldest = await mail(inboxId, "old");
    for (let i = 0; i < MAX_EVENTS + 1; i++) await mail(inboxId, `n${i}`);
    await waitFor(() => watcher.frames.length === MAX_EVENTS + 2, { what: "the inbox's frames on the watcher" });
    // within the window (exactly MAX_EVENTS after the id): replayed
    const inWindow = await open(inboxId, watcher.frames[1]!.id);
    await waitFor(() => inWindow.frames.length === MAX_EVENTS, { what: "the replayed frames" });
    expect(inWindow.frames).toEqual(watcher.frames.slice(2));
    inWindow.ws!.close();
    // one more than MAX_EVENTS after `oldest`
    for (const lastEventId of [randomUUID(), otherId, oldest]) {
      const resumed = await open(inboxId, lastEventId);
      await waitFor(() => resumed.frames.length === 1, { what: "the resync frame" });
      expect(resumed.frames[0]).toEqual({
        type: "resync_required",
        data: { inbox_id: inboxId, last_event_id: lastEventId, reason: "not_in_window" },
      });
      await mail(inboxId, "after");
      await waitFor(() => resumed.frames.length === 2, { what: "a live frame after the resync" });
      expect(subjects(resumed.frames)).toEqual(["resync_required", "after"]);
      resumed.ws!.close();
    }
    watcher.ws!.close();
  });

  it("when the id's event is older than the window's age, then the replay source does not find it; within the age, it does", async () => {
    const inboxId = randomUUID();
    const id = await mail(inboxId, "aged");
    const next = await mail(inboxId, "next");
    const stored = Date.now(); // both are in the stream by now
    const young = jetStreamEmailReplay(infra.nc, ns, { maxAgeMs: 600_000, maxEvents: 1000 });
    const found = await young.missed(inboxId, id);
    expect(found.found && found.events.map((e) => e.id)).toEqual([next]);
    // a window of 10 ms, asked 20 ms after both were stored
    await waitFor(() => Date.now() - stored > 20, { what: "20 ms to pass" });
    const short = jetStreamEmailReplay(infra.nc, ns, { maxAgeMs: 10, maxEvents: 1000 });
    expect(await short.missed(inboxId, id)).toEqual({ found: false });
  });

  it("when last_event_id is not a UUID, then the upgrade is refused with 400", async () => {
    expect((await open(randomUUID(), "not-a-uuid")).status).toBe(400);
  });
});
