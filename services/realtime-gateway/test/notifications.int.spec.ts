import { randomUUID } from "node:crypto";
import path from "node:path";
import { WebSocket } from "ws";
import { notificationPushSubject, nothingExtracted, type Notification } from "@burnbox/contracts";
import { poolSql } from "@burnbox/service-kit/data";
import { newEvent, publishEvent } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadRealtimeConfig, type RealtimeConfig } from "../src/config";
import { NotificationWriter } from "../src/data/notification.repository";
import { NotificationSocketRepository } from "../src/data/notification-socket.repository";
import { recordNotification } from "../src/domain/notifications/record-notification.use-case";

type Frame = { type: string; data: Notification };
type Page = { data: Notification[]; total: number; page: number; per_page: number; total_pages: number };

describe("notifications on real Postgres, Redis and NATS, with two replicas", () => {
  let t: TestService<RealtimeConfig, RunningService>;
  let ns: string;
  let infra: Infra;
  let replicaA: RunningService;
  let replicaB: RunningService;
  let call: TestService<RealtimeConfig, RunningService>["call"];
  const orgId = randomUUID();
  const teamId = randomUUID();

  beforeAll(async () => {
    t = await startTestService({
      prefix: "rtn",
      load: (o) => loadRealtimeConfig({}, o),
      start: startService,
      redis: true,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
    });
    ({ ns, infra, service: replicaA, call } = t);
    replicaB = await startService(t.config, infra);
  });

  afterAll(async () => {
    await replicaB?.stop();
    await t?.stop();
  });

  let clock = Date.now();
  /** An email.received event, each one a second after the previous (the list's order is the events'). */
  const emailReceived = (userId: string | undefined, subject = "Hello") => ({
    ...newEvent("email.received", {
      org_id: orgId,
      team_id: teamId,
      data: {
        email_id: randomUUID(),
        inbox_id: randomUUID(),
        team_id: teamId,
        from: "s@example.org",
        to: "x@y.test",
        subject,
        received_at: new Date().toISOString(),
        extracted: nothingExtracted(),
        ...(userId ? { created_by: userId } : {}),
      },
    }),
    occurred_at: new Date((clock += 1000)).toISOString(),
  });

  const rowsOf = (userId: string) => replicaA.db.notification.findMany({ where: { userId } });

  /** Opens a notification socket on `replica`; resolves once open (or closed at once) with its frames. */
  const openStream = async (replica: RunningService, actor: ReturnType<typeof makeActor>) => {
    const ticket = (await call<{ ticket: string }>("POST", "/ws/ticket", { actor })).body.ticket;
    const frames: Frame[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${replica.port}/api/v1/ws/notifications?ticket=${ticket}`);
    const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
    ws.on("message", (m: Buffer) => frames.push(JSON.parse(m.toString("utf8")) as Frame));
    ws.on("error", () => undefined);
    await new Promise<void>((r, reject) => {
      ws.on("open", () => r());
      ws.on("unexpected-response", () => reject(new Error("upgrade refused")));
    });
    return { ws, frames, closed };
  };

  it("when an email.received event names the inbox's creator, then exactly one row is stored and pushed to their socket on the other replica", async () => {
    const user = makeActor();
    const stream = await openStream(replicaB, user);
    const event = emailReceived(user.user_id, "Invoice");
    await publishEvent(infra.js, ns, event);
    await waitFor(() => stream.frames.length === 1, { what: "notification frame" });
    const [row] = await rowsOf(user.user_id);
    expect(stream.frames[0]).toEqual({
      type: "email.received",
      data: {
        id: row!.id,
        type: "email.received",
        title: "New email",
        message: "From s@example.org: Invoice",
        data: { inbox_id: event.data.inbox_id, email_id: event.data.email_id, from: "s@example.org", subject: "Invoice" },
        is_read: false,
        created_at: row!.createdAt.toISOString(),
      },
    });
    // the same event again, as a redelivery to either replica would bring it: nothing more
    expect(await recordNotification(replicaB.deps, { event })).toBeNull();
    expect(await recordNotification(replicaA.deps, { event })).toBeNull();
    expect(await rowsOf(user.user_id)).toHaveLength(1);
    stream.ws.close();
  });

  it("when a user has no notification socket on a replica, then that replica does not hear of their notifications; it does while one is open there, and stops after the last closes", async () => {
    const user = makeActor();
    const other = makeActor();
    expect(replicaB.liveNotifications.watching(user.user_id)).toBe(false);
    const first = await openStream(replicaB, user);
    const second = await openStream(replicaB, user);
    const others = await openStream(replicaB, other);
    // subscribed on the replica holding the sockets, before they opened; not on the other
    expect(replicaB.liveNotifications.watching(user.user_id)).toBe(true);
    expect(replicaA.liveNotifications.watching(user.user_id)).toBe(false);
    await recordNotification(replicaA.deps, { event: emailReceived(user.user_id, "Mine") });
    await waitFor(() => first.frames.length === 1 && second.frames.length === 1, { what: "the notification on both sockets" });
    first.ws.close();
    await first.closed;
    // one socket is still open there
    expect(replicaB.liveNotifications.watching(user.user_id)).toBe(true);
    second.ws.close();
    await second.closed;
    await waitFor(() => !replicaB.liveNotifications.watching(user.user_id), { what: "the subscription gone with the last socket" });
    // another user's notification never reached these sockets
    expect(others.frames).toEqual([]);
    expect(first.frames[0]!.data.message).toBe("From s@example.org: Mine");
    others.ws.close();
  });

  it("when a writer of the previous release announces a notification on the shared subject, then the user's socket still gets it (a rolling update)", async () => {
    const user = makeActor();
    const stream = await openStream(replicaB, user);
    const notification = await replicaA.deps.data.hot.notifications.create({
      id: randomUUID(),
      eventId: randomUUID(),
      createdAt: new Date(),
      userId: user.user_id,
      type: "email.received",
      title: "New email",
      message: "From s@example.org: Old writer",
      data: {},
    });
    infra.nc.publish(notificationPushSubject(ns), JSON.stringify({ user_id: user.user_id, notification }));
    await waitFor(() => stream.frames.length === 1, { what: "the pushed notification" });
    expect(stream.frames[0]).toEqual({ type: "email.received", data: notification });
    stream.ws.close();
  });

  it("when many events are recorded at once (one of them twice), then each is one row, written by grouped statements, and the repeat gets null", async () => {
    const user = makeActor();
    const events = Array.from({ length: 20 }, (_, i) => emailReceived(user.user_id, `Batch ${i}`));
    const results = await Promise.all([...events, events[0]!].map((event) => recordNotification(replicaA.deps, { event })));
    expect(results.filter((r) => r === null)).toHaveLength(1);
    const rows = await rowsOf(user.user_id);
    expect(rows.map((r) => r.message).sort()).toEqual(events.map((_, i) => `From s@example.org: Batch ${i}`).sort());
    const written = results.filter((r) => r !== null);
    expect(new Set(written.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(written.every((r) => r.data.subject === r.message.replace("From s@example.org: ", ""))).toBe(true);
  });

  it("when a writer of its own (another process's) writes a notification, then it keeps its time, once per event and user", async () => {
    const repo = new NotificationWriter(poolSql(infra.pool!));
    const user = makeActor();
    const createdAt = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    const fields = {
      id: randomUUID(),
      userId: user.user_id,
      eventId: randomUUID(),
      type: "email.received" as const,
      title: "New email",
      message: "From a@b.test: hi",
      data: { subject: "hi" },
      createdAt,
    };
    const written = await repo.create(fields);
    expect(written).toEqual({
      id: fields.id,
      type: "email.received",
      title: "New email",
      message: "From a@b.test: hi",
      data: { subject: "hi" },
      is_read: false,
      created_at: createdAt.toISOString(),
    });
    expect(await repo.create({ ...fields, id: randomUUID() })).toBeNull();
    expect((await rowsOf(user.user_id)).map((r) => r.id)).toEqual([fields.id]);
  });

  it("when an event does not name the inbox's creator, then no notification is written", async () => {
    expect(await recordNotification(replicaA.deps, { event: emailReceived(undefined) })).toBeNull();
  });

  it("when a user opens a sixth notification socket on any replica, then it is closed with 4429; once one closes, another is admitted", async () => {
    const user = makeActor();
    const five = [];
    for (const replica of [replicaA, replicaA, replicaA, replicaB, replicaB]) five.push(await openStream(replica, user));
    await waitFor(() => replicaA.notificationHub.count(user.user_id) === 3 && replicaB.notificationHub.count(user.user_id) === 2, {
      what: "five sockets admitted",
    });
    const sixth = await openStream(replicaB, user);
    expect(await sixth.closed).toBe(4429);
    expect(five.every((s) => s.ws.readyState === WebSocket.OPEN)).toBe(true);

    five[0]!.ws.close();
    await waitFor(() => replicaA.notificationHub.count(user.user_id) === 2, { what: "socket closed" });
    await waitFor(async () => (await infra.redis!.zcard(`${ns}:ws:notification-sockets:${user.user_id}`)) === 4, {
      what: "lease released",
    });
    const again = await openStream(replicaB, user);
    await waitFor(() => replicaB.notificationHub.count(user.user_id) === 3, { what: "new socket admitted" });
    for (const s of [...five.slice(1), again]) s.ws.close();
  });

  it("when a replica dies holding leases, then they lapse and stop counting against the user's limit", async () => {
    const repo = new NotificationSocketRepository(infra.redis!, `${ns}:`);
    const userId = randomUUID();
    const t0 = Date.now();
    const opts = { now: t0, leaseMs: 60_000, limit: 5 };
    for (let i = 0; i < 5; i++) expect(await repo.claim(userId, `s${i}`, opts)).toBe(true);
    expect(await repo.claim(userId, "s5", opts)).toBe(false);
    await repo.renew([{ userId, socketId: "s0" }], { now: t0 + 30_000, leaseMs: 60_000 });
    // a minute on: only the renewed lease is still held, so four more fit and no fifth
    const later = { ...opts, now: t0 + 60_001 };
    for (let i = 6; i < 10; i++) expect(await repo.claim(userId, `s${i}`, later)).toBe(true);
    expect(await repo.claim(userId, "s10", later)).toBe(false);
  });

  it("when a user lists, marks and deletes notifications, then only their own rows change and each change is audited", async () => {
    const user = makeActor();
    const other = makeActor();
    const mine: Notification[] = [];
    for (const subject of ["one", "two", "three"])
      mine.push((await recordNotification(replicaA.deps, { event: emailReceived(user.user_id, subject) }))!);
    const theirs = (await recordNotification(replicaA.deps, { event: emailReceived(other.user_id) }))!;

    const list = await call<Page>("GET", "/notifications?per_page=2", { actor: user });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(list.body.data.map((n) => n.message)).toEqual(["From s@example.org: three", "From s@example.org: two"]);

    const read = await call<Notification>("PATCH", `/notifications/${mine[0]!.id}/read`, { actor: user });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: mine[0]!.id, is_read: true });
    expect((await call<Page>("GET", "/notifications?unread=true", { actor: user })).body.total).toBe(2);
    expect((await call("PATCH", `/notifications/${theirs.id}/read`, { actor: user })).status).toBe(404);
    expect((await call("PATCH", `/notifications/${randomUUID()}/read`, { actor: user })).status).toBe(404);
    expect((await call("GET", "/notifications?unread=maybe", { actor: user })).status).toBe(400);

    expect((await call("POST", "/notifications/mark-all-read", { actor: user })).body).toEqual({ marked: 2 });
    expect((await call<Page>("GET", "/notifications?unread=true", { actor: user })).body.total).toBe(0);

    expect((await call("DELETE", `/notifications/${theirs.id}`, { actor: user })).status).toBe(404);
    const del = await call("DELETE", `/notifications/${mine[1]!.id}`, { actor: user });
    expect(del.status).toBe(204);
    expect((await call<Page>("GET", "/notifications", { actor: user })).body.total).toBe(2);
    expect((await call("DELETE", "/notifications", { actor: user })).status).toBe(204);
    expect((await call<Page>("GET", "/notifications", { actor: user })).body).toMatchObject({ data: [], total: 0 });

    const theirList = await call<Page>("GET", "/notifications", { actor: other });
    expect(theirList.body.data.map((n) => ({ id: n.id, is_read: n.is_read }))).toEqual([{ id: theirs.id, is_read: false }]);

    const audit = (await replicaA.db.outboxEvent.findMany({ orderBy: { createdAt: "asc" } }))
      .map((r) => r.payload as { type: string; data: { action: string; actor_user_id: string } })
      .filter((e) => e.type === "audit.recorded" && e.data.actor_user_id === user.user_id)
      .map((e) => e.data.action);
    expect(audit).toEqual(["notification.read", "notification.all_read", "notification.deleted", "notification.all_deleted"]);
  });

  it("when an API key calls a notification operation, then it is refused with 403", async () => {
    const key = makeActor({ api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } });
    expect((await call("GET", "/notifications", { actor: key })).status).toBe(403);
  });
});
