import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { EventType, subjects, WAIT_LIMITS } from "@burnbox/contracts";
import { createRedis, type Redis } from "@burnbox/service-kit/data";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { WaitSlots } from "../src/domain/emails/wait/wait-slots";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.wait-test.example";

interface WaitAnswer {
  data: Array<{ id: string; subject: string }>;
  matched: number;
  timed_out: boolean;
}

/** The held wait on the real Postgres, NATS and Redis: woken by a separate intake process's mail, ended by deletion and drain. */
describe("GET /inboxes/:id/emails/wait held in the inbox service", () => {
  let t: TestService<InboxConfig, RunningService>;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  let redis: Redis;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    t = await startInboxTestService("wait");
    stops = serveTenancyStandIn(t.infra, t.ns, { assignmentId, orgId, teamId, domain: DOMAIN });
    intakeInfra = await startInfra({
      config: t.config,
      database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR },
      logDestination: new LogCapture(),
    });
    intake = await startIntake(t.config, intakeInfra);
    redis = createRedis(t.config.redis.url);
  });

  afterAll(async () => {
    redis?.disconnect();
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const newInbox = async () => {
    const res = await t.call<{ id: string; full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const wait = (inboxId: string, query: string) => t.call<WaitAnswer>("GET", `/inboxes/${inboxId}/emails/wait?${query}`, { actor: owner });
  const send = (to: string, subject: string) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from: "a@example.org", to, subject, text: "hello" });

  it("when the intake process stores a matching mail, then the held wait answers with it and is no longer held", async () => {
    const inbox = await newInbox();
    const waiting = wait(inbox.id, "subject=wanted&timeout=20s");
    await waitFor(() => t.service.waits.size === 1 || undefined, { what: "the wait held" });
    await send(inbox.full_address, "not this one");
    await send(inbox.full_address, "the wanted one");
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ matched: 1, timed_out: false, data: [{ subject: "the wanted one" }] });
    expect(t.service.waits.size).toBe(0);
  });

  it("when a wait is held on one inbox, then its mail wakes it and another inbox's mail does not reach this process", async () => {
    const inbox = await newInbox();
    const other = await newInbox();
    const arrived = jest.spyOn(t.service.waits, "mailArrived");
    // the other inbox's event, as the stream has it: seen there, so it would have reached any subscriber of every email.received
    const streamed: string[] = [];
    const sub = intakeInfra.nc.subscribe(subjects(t.ns).event(EventType.emailReceived), {
      callback: (_err, msg) => void streamed.push(String(msg.json<{ data?: { inbox_id?: string } }>().data?.inbox_id)),
    });
    await intakeInfra.nc.flush();
    try {
      const waiting = wait(inbox.id, "subject=mine&timeout=20s");
      await waitFor(() => t.service.waits.size === 1 || undefined, { what: "the wait held" });
      await send(other.full_address, "mine");
      await waitFor(() => streamed.includes(other.id) || undefined, { what: "the other inbox's email.received" });
      await send(inbox.full_address, "mine");
      const r = await waiting;
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ matched: 1, timed_out: false, data: [{ subject: "mine" }] });
      await t.infra.nc.flush();
      expect(arrived.mock.calls.map(([inboxId]) => inboxId)).toEqual([inbox.id]);
    } finally {
      sub.unsubscribe();
      arrived.mockRestore();
    }
  });

  it("when the inbox is deleted during the wait, then it ends with 404", async () => {
    const inbox = await newInbox();
    const waiting = wait(inbox.id, "timeout=20s");
    await waitFor(() => t.service.waits.size === 1 || undefined, { what: "the wait held" });
    expect((await t.call("DELETE", `/inboxes/${inbox.id}`, { actor: owner })).status).toBe(204);
    expect((await waiting).status).toBe(404);
  });

  it("when the process drains, then held waits answer with what matched so far, timed_out", async () => {
    const inbox = await newInbox();
    await send(inbox.full_address, "first");
    const waiting = wait(inbox.id, "count=2&timeout=20s");
    await waitFor(() => t.service.waits.size === 1 || undefined, { what: "the wait held" });
    t.service.waits.drainAll();
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ matched: 1, timed_out: true, data: [{ subject: "first" }] });
  });

  it("when two replicas count one user's waits in Redis, then the cap holds over both, and a released slot is free again", async () => {
    const prefix = `${t.ns}:`;
    const replicaA = new WaitSlots(redis, prefix, 2, t.infra.logger);
    const replicaB = new WaitSlots(redis, prefix, 2, t.infra.logger);
    const user = randomUUID();
    const first = await replicaA.acquire(user, 5000);
    const second = await replicaB.acquire(user, 5000);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await replicaA.acquire(user, 5000)).toBeNull();
    expect(await replicaB.acquire(user, 5000)).toBeNull();
    first!();
    await waitFor(async () => (await redis.zcard(`${prefix}waits:${user}`)) === 1 || undefined, { what: "the release" });
    const third = await replicaB.acquire(user, 5000);
    expect(third).not.toBeNull();
    second!();
    third!();
  });

  it("when the first read reads, then it takes pages of at most `limit` rows, with bodies (cut to what is matched) and headers only when asked", async () => {
    const inbox = await newInbox();
    const sendText = (subject: string, text: string) =>
      nodemailer
        .createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true })
        .sendMail({ from: "a@example.org", to: inbox.full_address, subject, text });
    await sendText("one", `${"x".repeat(WAIT_LIMITS.bodyMatchMaxChars)}-beyond-the-cut`);
    await sendText("two", "short");
    await sendText("three", "short too");
    await waitFor(async () => ((await wait(inbox.id, "count=3&timeout=0")).body.matched === 3 ? true : undefined), {
      what: "three stored",
    });
    const scope = { orgId, teamId };
    const read = (columns: { bodies: boolean; headers: boolean }, from: string | null, limit: number) =>
      t.service.deps.data.hot.emails.firstRead(scope, { inboxId: inbox.id, after: null, unread: false, columns, page: { from, limit } });

    const bare = await read({ bodies: false, headers: false }, null, 2);
    expect(bare!.rows.map((r) => r.subject)).toEqual(["one", "two"]);
    expect(bare!.rows.every((r) => r.bodyText === null && r.bodyHtml === null && Object.keys(r.headers as object).length === 0)).toBe(true);
    expect(bare!.next).not.toBeNull();
    const rest = await read({ bodies: false, headers: false }, bare!.next, 2);
    expect(rest!.rows.map((r) => r.subject)).toEqual(["three"]);
    expect(rest!.next).toBeNull();

    const full = await read({ bodies: true, headers: true }, null, 10);
    expect(full!.rows.map((r) => r.subject)).toEqual(["one", "two", "three"]);
    expect(full!.rows[0]!.bodyText).toHaveLength(WAIT_LIMITS.bodyMatchMaxChars);
    expect(full!.rows[0]!.bodyText).not.toContain("beyond");
    expect(full!.rows[1]!.bodyText?.trim()).toBe("short");
    expect((full!.rows[1]!.headers as Record<string, string>).subject).toBe("two");
    expect(full!.next).toBeNull();

    // another team's scope reads nothing, as for an unknown inbox
    expect(
      await t.service.deps.data.hot.emails.firstRead(
        { orgId, teamId: randomUUID() },
        { inboxId: inbox.id, after: null, unread: false, columns: { bodies: true, headers: true }, page: { from: null, limit: 10 } },
      ),
    ).toBeNull();
  });
});
