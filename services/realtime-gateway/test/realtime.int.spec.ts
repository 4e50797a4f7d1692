import { randomUUID } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { WebSocket } from "ws";
import { EventType, RpcName, subjects } from "@burnbox/contracts";
import { newEvent, publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadRealtimeConfig, type RealtimeConfig } from "../src/config";
import { mailEvent, publishMail } from "./mail-stand-ins";

const EXTRACTED = {
  codes: [{ value: "482913", context: "Your code is 482913" }],
  links: [{ url: "https://app.example.org/verify?t=1", text: "Verify", kind: "verify" as const }],
};

/**
 * An email.received event for `inboxId`, with codes and links; `summary: false` makes one from
 * before events carried the summary (and `extracted`).
 */
function emailReceived(o: { orgId: string; teamId: string; inboxId: string; subject?: string; summary?: boolean }) {
  const made = mailEvent({ ...o, subject: o.subject ?? "Hello" });
  const { summary: _summary, extracted: _extracted, ...before } = made.data;
  const data = o.summary === false ? (before as typeof made.data) : { ...made.data, extracted: EXTRACTED };
  const event = { ...made, data };
  return { event, emailId: data.email_id, receivedAt: data.received_at };
}

/** A promise the test resolves itself: lets a stub hold a call until the test has done its part. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("realtime-gateway on real Redis and NATS", () => {
  let t: TestService<RealtimeConfig, RunningService>;
  let ns: string;
  let infra: Infra;
  let service: RunningService;
  let call: TestService<RealtimeConfig, RunningService>["call"];
  let rpcs: Array<{ stop(): Promise<void> }> = [];
  const member = makeActor();
  const outsider = makeActor();
  const viewer = makeActor(); // a team member without team.emails.view
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();
  const inboxId = randomUUID();
  const otherInbox = randomUUID();
  const privateInbox = randomUUID();
  const ownOnlyAssignment = randomUUID(); // create_inbox: tenancy keeps the member to their own inboxes on it
  const othersInbox = randomUUID(); // someone else's, on that assignment
  const slowInbox = randomUUID(); // its access lookup waits for the test
  const slowTeam = randomUUID();
  const slowLookup = { started: gate(), release: gate() };
  const authorizedTeams: string[] = [];

  beforeAll(async () => {
    t = await startTestService({
      prefix: "rt",
      load: (o) => loadRealtimeConfig({}, o),
      start: startService,
      redis: true,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
    });
    ({ ns, infra, service, call } = t);
    const inboxes: Record<string, { private: boolean; created_by: string; domain_assignment_id?: string }> = {
      [inboxId]: { private: false, created_by: member.user_id },
      [otherInbox]: { private: false, created_by: member.user_id },
      [privateInbox]: { private: true, created_by: randomUUID() },
      [othersInbox]: { private: false, created_by: randomUUID(), domain_assignment_id: ownOnlyAssignment },
      [slowInbox]: { private: false, created_by: member.user_id },
    };
    rpcs = [
      serveRpc(
        infra.nc,
        ns,
        RpcName.getInboxAccess,
        async (req) => {
          if (req.inbox_id === slowInbox) {
            slowLookup.started.open();
            await slowLookup.release.opened;
          }
          const i = inboxes[req.inbox_id];
          const team = req.inbox_id === slowInbox ? slowTeam : teamId;
          return {
            inbox: i ? { id: req.inbox_id, org_id: orgId, team_id: team, domain_assignment_id: assignmentId, is_active: true, ...i } : null,
          };
        },
        infra.logger,
      ),
      serveRpc(
        infra.nc,
        ns,
        RpcName.authorize,
        async (req) => {
          if (req.team_id) authorizedTeams.push(req.team_id);
          return req.actor.user_id === member.user_id
            ? { allowed: true, reason: null, own_only_assignments: [ownOnlyAssignment] }
            : { allowed: false, reason: req.actor.user_id === viewer.user_id ? "missing_permission" : "not_member" };
        },
        infra.logger,
      ),
    ];
  });

  afterAll(async () => {
    slowLookup.release.open();
    await Promise.all(rpcs.map((r) => r.stop()));
    await t?.stop();
  });

  const ticket = async (actor = member) =>
    (await call<{ ticket: string; expires_in: number }>("POST", "/ws/ticket", { actor })).body.ticket;

  /** Opens a socket; resolves with it and its frames, or with the HTTP status that refused it. */
  const open = (inbox: string, t: string) =>
    new Promise<{ ws?: WebSocket; frames: Array<{ type: string; data: Record<string, unknown> }>; status?: number }>((resolve) => {
      const frames: Array<{ type: string; data: Record<string, unknown> }> = [];
      const ws = new WebSocket(`ws://127.0.0.1:${service.port}/api/v1/ws/inboxes/${inbox}?ticket=${t}`);
      ws.on("message", (m: Buffer) => frames.push(JSON.parse(m.toString("utf8")) as { type: string; data: Record<string, unknown> }));
      ws.on("open", () => resolve({ ws, frames }));
      ws.on("unexpected-response", (_req, res) => resolve({ frames, status: res.statusCode ?? 0 }));
      ws.on("error", () => undefined);
    });

  it("when a user asks for a ticket, then it gets a UUID valid 30 s; an API key's ticket keeps its scopes", async () => {
    const res = await call<{ ticket: string; expires_in: number }>("POST", "/ws/ticket", { actor: member });
    expect(res.status).toBe(201);
    expect(res.body.expires_in).toBe(30);
    expect(await infra.redis!.ttl(`${ns}:ws:ticket:${res.body.ticket}`)).toBeGreaterThan(25);
    const keyActor = { ...member, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    const key = await call<{ ticket: string }>("POST", "/ws/ticket", { actor: keyActor });
    expect(key.status).toBe(201);
    expect(JSON.parse((await infra.redis!.get(`${ns}:ws:ticket:${key.body.ticket}`)) ?? "null")).toMatchObject({
      api_key: keyActor.api_key,
    });
  });

  it("when a ticket was taken with an API key, then the inbox stream needs the key's team.emails.view", async () => {
    const withKey = (scopes: string[]) => ticket({ ...member, api_key: { id: randomUUID(), team_id: teamId, scopes } });
    const refused = await open(inboxId, await withKey(["team.inboxes.view"]));
    expect(refused.status).toBe(403);
    const admitted = await open(inboxId, await withKey(["team.emails.view"]));
    expect(admitted.ws).toBeDefined();
    admitted.ws?.close();
  });

  it("when an email arrives for a watched inbox, then the socket gets the frame, and sockets of other inboxes do not", async () => {
    const a = await open(inboxId, await ticket());
    const b = await open(otherInbox, await ticket());
    expect(a.ws && b.ws).toBeTruthy();
    const { event, emailId } = emailReceived({ orgId, teamId, inboxId });
    await publishMail(infra, ns, event);
    await waitFor(() => a.frames.length === 1, { what: "frame" });
    expect(a.frames[0]).toMatchObject({
      type: "email.received",
      data: { id: emailId, inbox_id: inboxId, subject: "Hello", extracted: EXTRACTED },
    });
    // Sentinel: an email for b's inbox, sent after; b's first frame must be that one.
    const sentinel = emailReceived({ orgId, teamId, inboxId: otherInbox, subject: "Sentinel" });
    await publishMail(infra, ns, sentinel.event);
    await waitFor(() => b.frames.length === 1, { what: "sentinel frame" });
    expect(b.frames.map((f) => f.data.id)).toEqual([sentinel.emailId]);
    expect(a.frames).toHaveLength(1);
    a.ws?.close();
    b.ws?.close();
  });

  it("when an inbox's mail is on the events stream only, then no socket gets it: a socket's frames come from its inbox's live subject, subscribed while it is open", async () => {
    const a = await open(inboxId, await ticket());
    expect(service.live.watching(inboxId)).toBe(true);
    const streamOnly = emailReceived({ orgId, teamId, inboxId, subject: "stream only" });
    await publishEvent(infra.js, ns, streamOnly.event);
    const live = subjects(ns).live(EventType.emailReceived, inboxId);
    const liveOnly = emailReceived({ orgId, teamId, inboxId, subject: "live only" });
    infra.nc.publish(live, JSON.stringify(liveOnly.event));
    const sentinel = emailReceived({ orgId, teamId, inboxId, subject: "sentinel" });
    await publishMail(infra, ns, sentinel.event);
    await waitFor(() => a.frames.length >= 2, { what: "the live frames" });
    expect(a.frames.map((f) => f.data.subject)).toEqual(["live only", "sentinel"]);
    const closed = new Promise<void>((r) => a.ws!.once("close", () => r()));
    a.ws!.close();
    await closed;
    await waitFor(() => !service.live.watching(inboxId) || undefined, { what: "the inbox's live subscription to go" });
  });

  it("when a ticket is reused, unknown, or the caller may not see the inbox, then the upgrade is refused with 401 or 404", async () => {
    const t = await ticket();
    const first = await open(inboxId, t);
    expect(first.ws).toBeDefined();
    first.ws?.close();
    expect((await open(inboxId, t)).status).toBe(401);
    expect((await open(inboxId, randomUUID())).status).toBe(401);
    expect((await open(inboxId, await ticket(outsider))).status).toBe(404);
    expect((await open(privateInbox, await ticket())).status).toBe(404);
    expect((await open(othersInbox, await ticket())).status).toBe(404);
    expect((await open(randomUUID(), await ticket())).status).toBe(404);
    expect((await open(inboxId, await ticket(viewer))).status).toBe(403);
  });

  it("when an event carries no summary nor extracted, then the frame is built from the event's own fields, with empty lists", async () => {
    const a = await open(inboxId, await ticket());
    const { event, emailId, receivedAt } = emailReceived({ orgId, teamId, inboxId, subject: "No summary", summary: false });
    await publishMail(infra, ns, event);
    await waitFor(() => a.frames.length === 1, { what: "frame" });
    expect(a.frames[0]).toEqual({
      type: "email.received",
      data: {
        id: emailId,
        inbox_id: inboxId,
        from_address: "s@example.org",
        subject: "No summary",
        received_at: receivedAt,
        extracted: { codes: [], links: [] },
      },
      id: event.id,
    });
    a.ws?.close();
  });

  it("when a client resets the connection while its upgrade is being checked, then the service keeps running", async () => {
    const t = await ticket();
    const raw = net.connect(service.port, "127.0.0.1");
    await new Promise<void>((r) => raw.on("connect", () => r()));
    raw.on("error", () => undefined);
    raw.write(
      `GET /api/v1/ws/inboxes/${slowInbox}?ticket=${t} HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    await slowLookup.started.opened; // the service is checking the access of this upgrade
    raw.resetAndDestroy();
    expect((await fetch(`http://127.0.0.1:${service.port}/healthz`)).status).toBe(200); // the reset reached it first
    slowLookup.release.open();
    await waitFor(() => authorizedTeams.includes(slowTeam), { what: "the slow access check to finish" });
    expect((await fetch(`http://127.0.0.1:${service.port}/healthz`)).status).toBe(200);
    const a = await open(inboxId, await ticket());
    expect(a.ws).toBeDefined();
    a.ws?.close();
  });

  it("when an inbox expires, then its sockets get inbox.expired and are closed", async () => {
    const a = await open(inboxId, await ticket());
    const closed = new Promise<number>((r) => a.ws!.on("close", (code) => r(code)));
    await publishEvent(
      infra.js,
      ns,
      newEvent("inbox.expired", {
        org_id: orgId,
        team_id: teamId,
        data: { inbox_id: inboxId, team_id: teamId, full_address: "x@y.test", expired_at: new Date().toISOString() },
      }),
    );
    expect(await closed).toBe(1000);
    expect(a.frames[0]).toMatchObject({ type: "inbox.expired", data: { inbox_id: inboxId } });
  });
});
