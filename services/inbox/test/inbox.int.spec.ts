import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { RpcName, subjects, type Actor } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, startService, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { expireInboxes } from "../src/domain/inboxes/expire-inboxes.use-case";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.inbox-test.example";

describe("inbox and SMTP intake on real Postgres and NATS", () => {
  let t: TestService<InboxConfig, RunningService>;
  let ns: string;
  let config: InboxConfig;
  let infra: Infra;
  let intakeInfra: Infra;
  let service: RunningService;
  let intake: RunningIntake;
  let call: TestService<InboxConfig, RunningService>["call"];
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const owner = makeActor();
  const teammate = makeActor();
  const outsider = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();
  let stops: Array<{ stop(): Promise<void> }> = [];
  let now = Date.now();

  beforeAll(async () => {
    t = await startInboxTestService("inb", { start: (c, i) => startService(c, i, { now: () => now }) });
    ({ ns, config, infra, service, call } = t);
    // the SMTP intake is a process of its own in production: here it gets its own connections
    intakeInfra = await startInfra({ config, database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR }, logDestination: new LogCapture() });
    // Tenancy's side of the conversation, over the real NATS: owner and teammate are in the team.
    const members = new Set([owner.user_id, teammate.user_id]);
    stops = [
      ...serveTenancyStandIn(infra, ns, { assignmentId, orgId, teamId, domain: DOMAIN, members }),
      serveRpc(
        infra.nc,
        ns,
        RpcName.listActorTeams,
        async (req) => ({ teams: members.has(req.actor.user_id) ? [{ org_id: orgId, team_id: teamId }] : [] }),
        infra.logger,
      ),
    ];
    const sub = infra.nc.subscribe(`${subjects(ns).eventsWildcard}`, {
      callback: (_err, msg) => {
        events.push(msg.json());
      },
    });
    stops.push({ stop: async () => sub.unsubscribe() });
    intake = await startIntake(config, intakeInfra, { now: () => now });
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const mailer = () => nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
  const create = (actor: Actor, body: Record<string, unknown>) =>
    call<{ id: string; full_address: string; address: string; expires_at: string; created_at: string; private: boolean }>(
      "POST",
      "/inboxes",
      {
        actor,
        body: { domain_assignment_id: assignmentId, ...body },
      },
    );

  it("when an inbox is created, then it has the address, the default TTL and an inbox.created event", async () => {
    const res = await create(owner, { alias: "signup-tests" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ address: "signup-tests", full_address: `signup-tests@${DOMAIN}`, private: false });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(600_000);
    const created = await waitFor(() => events.find((e) => e.type === "inbox.created" && e.data.inbox_id === res.body.id), {
      what: "inbox.created",
    });
    expect(created.data).toMatchObject({ team_id: teamId, address: "signup-tests", full_address: `signup-tests@${DOMAIN}` });
    const audit = await waitFor(() => events.find((e) => e.type === "audit.recorded" && e.data.target_id === res.body.id), {
      what: "audit entry",
    });
    expect(audit.data).toEqual({
      action: "inbox.created",
      actor_user_id: owner.user_id,
      actor_api_key_id: null,
      target_type: "inbox",
      target_id: res.body.id,
      ip_address: "127.0.0.1",
      metadata: { full_address: `signup-tests@${DOMAIN}` },
      actor_email: owner.email,
      user_agent: expect.any(String) as string,
    });
    const random = await create(owner, {});
    expect(random.body.address).toMatch(/^[a-z0-9]{10}$/);
  });

  it("when the address is taken, the TTL too long or the assignment unknown, then 409, 400 and 404", async () => {
    await create(owner, { alias: "taken" });
    expect((await create(owner, { alias: "taken" })).status).toBe(409);
    const long = await call<{ code: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, ttl: "25h" },
    });
    expect(long.status).toBe(400);
    expect((await call("POST", "/inboxes", { actor: owner, body: { domain_assignment_id: assignmentId, ttl: "soon" } })).status).toBe(400);
    expect((await call("POST", "/inboxes", { actor: owner, body: { domain_assignment_id: randomUUID() } })).status).toBe(404);
    expect((await create(outsider, { alias: "intruder" })).status).toBe(404);
  });

  it("when inboxes are listed, then members see the team's (not others' private ones) and outsiders see nothing", async () => {
    const priv = await create(owner, { alias: `private-${randomUUID().slice(0, 6)}`, private: true });
    const listTeammate = await call<{ data: Array<{ id: string }>; total: number }>("GET", "/inboxes?per_page=100", { actor: teammate });
    expect(listTeammate.status).toBe(200);
    expect(listTeammate.body.data.map((i) => i.id)).not.toContain(priv.body.id);
    const listOwner = await call<{ data: Array<{ id: string }> }>("GET", "/inboxes?per_page=100", { actor: owner });
    expect(listOwner.body.data.map((i) => i.id)).toContain(priv.body.id);
    expect((await call("GET", `/inboxes/${priv.body.id}`, { actor: teammate })).status).toBe(404);
    expect((await call<{ total: number }>("GET", "/inboxes", { actor: outsider })).body.total).toBe(0);
    expect((await call("GET", `/orgs/${orgId}/teams/${teamId}/inboxes`, { actor: outsider })).status).toBe(404);
    expect((await call("GET", `/inboxes/${priv.body.id}`, { actor: outsider })).status).toBe(404);
  });

  it("when mail is sent to an unknown address, then RCPT is refused with 550 and nothing is stored", async () => {
    await expect(mailer().sendMail({ from: "a@example.org", to: `nobody@${DOMAIN}`, subject: "x", text: "x" })).rejects.toMatchObject({
      responseCode: 550,
    });
    // sentinel: a message accepted afterwards is announced; had the refused one been stored, its event would precede it
    const sentinel = await create(owner, { alias: `sentinel-${randomUUID().slice(0, 6)}` });
    await mailer().sendMail({ from: "a@example.org", to: sentinel.body.full_address, subject: "sentinel", text: "x" });
    await waitFor(() => events.find((e) => e.type === "email.received" && e.data.inbox_id === sentinel.body.id), { what: "sentinel" });
    expect(events.filter((e) => e.type === "email.received" && e.data.to === `nobody@${DOMAIN}`)).toEqual([]);
  });

  it("when mail arrives, then it is stored, sanitized, listed, searchable and announced", async () => {
    const inbox = await create(owner, { alias: `recv-${randomUUID().slice(0, 6)}` });
    const info = await mailer().sendMail({
      from: "Sender <sender@example.org>",
      to: inbox.body.full_address.toUpperCase(),
      subject: "Your code",
      text: "Your code is 424242",
      html: '<p onclick="steal()">Your code is <b>424242</b></p><script>alert(1)</script>',
      attachments: [
        { filename: "report.txt", content: "hello" },
        { filename: "evil.exe", content: Buffer.from("MZ"), contentType: "application/octet-stream" },
      ],
    });
    expect(info.accepted).toHaveLength(1);
    const page = await call<{ data: Array<{ id: string; subject: string; snippet: string; has_attachments: boolean }>; total: number }>(
      "GET",
      `/inboxes/${inbox.body.id}/emails`,
      { actor: teammate },
    );
    expect(page.body.total).toBe(1);
    const summary = page.body.data[0]!;
    expect(summary).toMatchObject({ subject: "Your code", snippet: "Your code is 424242", has_attachments: true });
    const email = await call<{
      body_html: string;
      from_address: string;
      attachments: Array<{ filename: string }>;
      headers: Record<string, string>;
    }>("GET", `/emails/${summary.id}`, { actor: owner });
    expect(email.body.from_address).toBe("sender@example.org");
    expect(email.body.body_html).toContain("<b>424242</b>");
    expect(email.body.body_html).not.toMatch(/script|onclick/);
    expect(email.body.attachments.map((a) => a.filename)).toEqual(["report.txt"]);
    expect(email.body.headers.Subject ?? email.body.headers.subject).toBe("Your code");
    const hidden = await call("GET", `/emails/${summary.id}`, { actor: outsider });
    expect(hidden).toMatchObject({ status: 404, body: { error: "email not found", code: "not_found" } });
    expect((await call<{ total: number }>("GET", `/inboxes/${inbox.body.id}/emails?q=424242`, { actor: owner })).body.total).toBe(1);
    expect((await call<{ total: number }>("GET", `/inboxes/${inbox.body.id}/emails?q=nomatch`, { actor: owner })).body.total).toBe(0);
    const received = await waitFor(() => events.find((e) => e.type === "email.received" && e.data.email_id === summary.id), {
      what: "email.received",
    });
    expect(received.data).toMatchObject({ inbox_id: inbox.body.id, team_id: teamId, from: "sender@example.org", subject: "Your code" });
    const got = await call<{ email_count: number; unread_count: number }>("GET", `/inboxes/${inbox.body.id}`, { actor: owner });
    expect(got.body).toMatchObject({ email_count: 1, unread_count: 1 });
  });

  it("when a message holds NUL bytes (raw, and through an encoded word), then it is stored with them dropped from its text and kept in the raw message", async () => {
    const inbox = await create(owner, { alias: `nul-${randomUUID().slice(0, 6)}` });
    const raw = [
      `From: sender@example.org`,
      `To: ${inbox.body.full_address}`,
      `Subject: =?utf-8?B?${Buffer.from("Code\u0000 42").toString("base64")}?=`,
      `X-Odd: a\u0000b`,
      `Content-Type: text/plain; charset=utf-8`,
      ``,
      `Your code\u0000 is 4242`,
      ``,
    ].join("\r\n");
    const info = await mailer().sendMail({ envelope: { from: "sender@example.org", to: [inbox.body.full_address] }, raw });
    expect(info.accepted).toHaveLength(1);
    const page = await call<{ data: Array<{ id: string; subject: string; snippet: string }> }>("GET", `/inboxes/${inbox.body.id}/emails`, {
      actor: owner,
    });
    expect(page.body.data[0]).toMatchObject({ subject: "Code 42", snippet: "Your code is 4242" });
    const id = page.body.data[0]!.id;
    const email = await call<{ body_text: string; headers: Record<string, string> }>("GET", `/emails/${id}`, { actor: owner });
    expect(email.body.body_text).toContain("Your code is 4242");
    expect(email.body.headers["x-odd"] ?? email.body.headers["X-Odd"]).toBe("ab");
    const stored = await readFile(path.join(config.storage.local_path, inbox.body.id, id, "message.eml"));
    expect(stored.includes(Buffer.from("Your code\u0000 is 4242"))).toBe(true);
  });

  it("when a message exceeds the size limit, then DATA is refused with 552", async () => {
    const inbox = await create(owner, { alias: `big-${randomUUID().slice(0, 6)}` });
    const big = "x".repeat(26 * 1024 * 1024);
    await expect(
      mailer().sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "big", text: big }),
    ).rejects.toMatchObject({ responseCode: 552 });
  });

  it("when the TTL has lapsed, then the next cleanup cycle removes the inbox and its mail, emits inbox.expired once, and SMTP refuses it", async () => {
    const inbox = await create(owner, { alias: `short-${randomUUID().slice(0, 6)}`, ttl: "1m" });
    await mailer().sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "soon gone", text: "x" });
    const files = path.join(config.storage.local_path, inbox.body.id);
    expect(existsSync(files)).toBe(true);
    expect(await expireInboxes(service.deps)).toBe(0);
    now += 61_000;
    await expect(
      mailer().sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "late", text: "x" }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const removed = await Promise.all([expireInboxes(service.deps), expireInboxes(intake.deps)]);
    expect(removed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect((await call("GET", `/inboxes/${inbox.body.id}`, { actor: owner })).status).toBe(404);
    expect(existsSync(files)).toBe(false);
    // sentinel: a later expiry, by the service's own periodic task, is announced after any duplicate of the first
    const later = await create(owner, { alias: `later-${randomUUID().slice(0, 6)}`, ttl: "1m" });
    now += 61_000;
    await service.cleanup.runNow();
    await waitFor(() => events.find((e) => e.type === "inbox.expired" && e.data.inbox_id === later.body.id), { what: "sentinel" });
    expect(events.filter((e) => e.type === "inbox.expired" && e.data.inbox_id === inbox.body.id)).toEqual([
      expect.objectContaining({ org_id: orgId, data: expect.objectContaining({ team_id: teamId, full_address: inbox.body.full_address }) }),
    ]);
  });

  it("when an expired inbox holds more mail than one cleanup batch, then it is emptied batch by batch with rests between, its files going with each batch, and an unexpired inbox keeps its mail", async () => {
    const full = await create(owner, { alias: `full-${randomUUID().slice(0, 6)}`, ttl: "1m" });
    const live = await create(owner, { alias: `live-${randomUUID().slice(0, 6)}`, ttl: "1h" });
    for (let i = 0; i < 5; i++)
      await mailer().sendMail({ from: "a@example.org", to: full.body.full_address, subject: `old ${i}`, text: "x" });
    await mailer().sendMail({ from: "a@example.org", to: live.body.full_address, subject: "kept", text: "x" });
    const files = path.join(config.storage.local_path, full.body.id);
    const filesLeft = () =>
      existsSync(files) ? readdirSync(files, { recursive: true }).filter((f) => String(f).endsWith(".eml")).length : 0;
    expect(filesLeft()).toBe(5);
    now += 61_000;
    const left: number[] = [];
    const steps: Array<{ emails: number; inboxes: number }> = [];
    const removed = await expireInboxes(service.deps, {
      emails: 2,
      rest: async () => void left.push(filesLeft()),
      onStep: (s) => steps.push({ emails: s.emails, inboxes: s.inboxes }),
    });
    expect(removed).toBe(1);
    // 5 emails in steps of 2, each followed by a rest: the inbox goes with its last email, and
    // each step's files go with its rows, before the inbox's folder is swept
    expect(steps).toEqual([
      { emails: 2, inboxes: 0 },
      { emails: 2, inboxes: 0 },
      { emails: 1, inboxes: 1 },
    ]);
    expect(left).toEqual([3, 1, 0]);
    expect((await call("GET", `/inboxes/${full.body.id}`, { actor: owner })).status).toBe(404);
    expect(existsSync(files)).toBe(false);
    const kept = await call<{ data: Array<{ subject: string }> }>("GET", `/inboxes/${live.body.id}/emails`, { actor: owner });
    expect(kept.body.data.map((e) => e.subject)).toEqual(["kept"]);
  });

  it("when realtime asks who may watch an inbox, then it gets the inbox's tenant, assignment, owner and visibility (null when unknown)", async () => {
    const priv = await create(owner, { alias: `watch-${randomUUID().slice(0, 6)}`, private: true });
    expect(await rpcRequest(infra.nc, ns, RpcName.getInboxAccess, { inbox_id: priv.body.id })).toEqual({
      inbox: {
        id: priv.body.id,
        org_id: orgId,
        team_id: teamId,
        domain_assignment_id: assignmentId,
        created_by: owner.user_id,
        private: true,
        is_active: true,
      },
    });
    expect(await rpcRequest(infra.nc, ns, RpcName.getInboxAccess, { inbox_id: randomUUID() })).toEqual({ inbox: null });
  });

  it("when a repository is asked with another tenant's scope, then it finds nothing", async () => {
    const inbox = await create(owner, { alias: `scoped-${randomUUID().slice(0, 6)}` });
    await mailer().sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "scoped", text: "x" });
    const repos = service.deps.data.repos;
    const [email] = await repos.emails.list({ orgId, teamId }, { inboxId: inbox.body.id }, { skip: 0, take: 10 });
    const otherOrg = { orgId: randomUUID(), teamId };
    const otherTeam = { orgId, teamId: randomUUID() };
    expect(await repos.inboxes.get({ orgId, teamId }, inbox.body.id)).toMatchObject({ id: inbox.body.id, email_count: 1 });
    expect(await repos.inboxes.get(otherOrg, inbox.body.id)).toBeNull();
    expect(await repos.inboxes.get(otherTeam, inbox.body.id)).toBeNull();
    expect(await repos.emails.get(otherOrg, email!.id)).toBeNull();
    expect(await repos.emails.count(otherTeam, { inboxId: inbox.body.id })).toBe(0);
    expect(await repos.inboxes.count({ teams: [otherOrg], viewerId: owner.user_id })).toBe(0);
  });
});
