import { randomBytes, randomUUID } from "node:crypto";
import net from "node:net";
import { RpcName, type SmtpAttempt, type SmtpBehaviour, type SmtpTranscript } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import { ATTEMPTS_KEPT_PER_INBOX } from "../src/data/smtp-log.repository";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";
import { serveTenancyStandIn } from "./tenancy-stand-in";

const DOMAIN = "mail.behaviour.example";

interface Reply {
  code: number;
  /** The last line, whole (`550 5.1.1 ...`). */
  line: string;
}

/** A raw SMTP client, so the tests see every reply line as the server sent it. */
class Smtp {
  private buffer = "";
  private waiters: Array<(r: Reply) => void> = [];

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf("\r\n")) >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 2);
        if (/^\d{3} /.test(line)) this.waiters.shift()?.({ code: Number(line.slice(0, 3)), line });
      }
    });
  }

  /** A new connection, greeted and introduced (EHLO client.test). */
  static async open(port: number): Promise<Smtp> {
    const smtp = new Smtp(net.connect(port, "127.0.0.1"));
    expect((await smtp.next()).code).toBe(220);
    expect((await smtp.command("EHLO client.test")).code).toBe(250);
    return smtp;
  }

  private next(): Promise<Reply> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  command(line: string): Promise<Reply> {
    const reply = this.next();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  /** DATA, then the message dot-stuffed; `sent` is called just before the terminating dot goes. */
  async data(message: string, sent?: () => void): Promise<Reply> {
    const go = await this.command("DATA");
    if (go.code !== 354) return go;
    this.socket.write(message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, ".."));
    const reply = this.next();
    sent?.();
    this.socket.write("\r\n.\r\n");
    return reply;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A message with this Message-ID (a fresh one unless given) and body. */
function message(opts: { to: string; subject?: string; body?: string; messageId?: string }): string {
  return [
    "From: sender@example.org",
    `To: ${opts.to}`,
    `Subject: ${opts.subject ?? "behaviour test"}`,
    `Message-ID: ${opts.messageId ?? `<${randomBytes(6).toString("hex")}@client.test>`}`,
    "",
    opts.body ?? "hello",
  ].join("\r\n");
}

/** One whole transaction on a new connection: the replies to MAIL, each RCPT and DATA (when a recipient was accepted). */
async function send(port: number, opts: { to: string[]; mail?: string; message: string; sent?: () => void }) {
  const smtp = await Smtp.open(port);
  try {
    const mail = await smtp.command(`MAIL FROM:<sender@example.org>${opts.mail ?? ""}`);
    const rcpts: Reply[] = [];
    for (const to of opts.to) rcpts.push(await smtp.command(`RCPT TO:<${to}>`));
    const data = rcpts.some((r) => r.code === 250) ? await smtp.data(opts.message, opts.sent) : null;
    return { mail, rcpts, data };
  } finally {
    smtp.close();
  }
}

describe("SMTP behaviour per inbox (extensions section 8), on real Postgres, Redis and NATS", () => {
  let t: TestService<InboxConfig, RunningService>;
  const intakes: RunningIntake[] = [];
  const intakeInfras: Infra[] = [];
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const outsider = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    t = await startInboxTestService("smtpb", { redis: true });
    stops = [
      ...serveTenancyStandIn(t.infra, t.ns, { assignmentId, orgId, teamId, domain: DOMAIN, members: new Set([owner.user_id]) }),
      serveRpc(
        t.infra.nc,
        t.ns,
        RpcName.listActorTeams,
        async (req) => ({ teams: req.actor.user_id === owner.user_id ? [{ org_id: orgId, team_id: teamId }] : [] }),
        t.infra.logger,
      ),
    ];
    // two intake replicas, each a process of its own: its own NATS, Postgres and Redis connections
    const config = loadInboxConfig({}, { ...t.config, http: { port: 0, host: "127.0.0.1" } });
    for (let i = 0; i < 2; i++) {
      const infra = await startInfra({
        config,
        redis: true,
        database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR },
        logDestination: new LogCapture(),
      });
      intakeInfras.push(infra);
      intakes.push(await startIntake(config, infra));
    }
  });

  afterAll(async () => {
    await Promise.all(intakes.map((i) => i.stop()));
    await Promise.all(intakeInfras.map((i) => i.close()));
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const port = (n: 0 | 1) => (intakes[n] as RunningIntake).smtpPort;

  type InboxView = { id: string; full_address: string; smtp_behaviour: SmtpBehaviour | null };
  async function createInbox(smtpBehaviour?: unknown): Promise<InboxView> {
    const res = await t.call<InboxView>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, ...(smtpBehaviour !== undefined ? { smtp_behaviour: smtpBehaviour } : {}) },
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const patch = (id: string, body: unknown, actor = owner) =>
    t.call<InboxView & { code?: string }>("PATCH", `/inboxes/${id}`, { actor, body });
  async function smtpLog(inboxId: string): Promise<SmtpAttempt[]> {
    const res = await t.call<{ data: SmtpAttempt[]; total: number }>("GET", `/inboxes/${inboxId}/smtp-log?per_page=100`, { actor: owner });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.data.length);
    return res.body.data;
  }
  async function emailsOf(inboxId: string): Promise<Array<{ id: string; subject: string; size_bytes: number }>> {
    const res = await t.call<{ data: Array<{ id: string; subject: string; size_bytes: number }> }>("GET", `/inboxes/${inboxId}/emails`, {
      actor: owner,
    });
    return res.body.data;
  }
  const texts = (transcript: { lines: Array<{ text: string }> }) => transcript.lines.map((l) => l.text);

  it("when an inbox is created with a behaviour, then its views show it; a PATCH replaces it, null clears it, and bad input is 400", async () => {
    const inbox = await createInbox({ defer_first: 2, delay_ms: null });
    expect(inbox.smtp_behaviour).toEqual({ defer_first: 2 });
    expect((await t.call<InboxView>("GET", `/inboxes/${inbox.id}`, { actor: owner })).body.smtp_behaviour).toEqual({ defer_first: 2 });
    const listed = await t.call<{ data: InboxView[] }>("GET", `/inboxes?per_page=100`, { actor: owner });
    expect(listed.body.data.find((i) => i.id === inbox.id)?.smtp_behaviour).toEqual({ defer_first: 2 });

    const replaced = await patch(inbox.id, { smtp_behaviour: { reject_rcpt: { code: 550, message: "5.7.1 No" }, max_size_bytes: 5000 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.smtp_behaviour).toEqual({ reject_rcpt: { code: 550, message: "5.7.1 No" }, max_size_bytes: 5000 });
    expect((await patch(inbox.id, {})).body.smtp_behaviour).toEqual(replaced.body.smtp_behaviour);

    for (const bad of [
      { smtp_behaviour: { defer_first: 11 } },
      { smtp_behaviour: { delay_ms: 30_001 } },
      { smtp_behaviour: { reject_rcpt: { code: 250, message: "ok" } } },
      { smtp_behaviour: { greylist: true } },
      { smtp_behaviour: { max_size_bytes: 0 } },
      { alias: "renamed" },
    ]) {
      const res = await patch(inbox.id, bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_error", error: expect.any(String) as string });
    }
    const refusedCreate = await t.call<{ code: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, smtp_behaviour: { delay_ms: -1 } },
    });
    expect(refusedCreate).toMatchObject({ status: 400, body: { code: "validation_error" } });
    expect((await t.call<InboxView>("GET", `/inboxes/${inbox.id}`, { actor: owner })).body.smtp_behaviour).toEqual(
      replaced.body.smtp_behaviour,
    );

    expect((await patch(inbox.id, { smtp_behaviour: null })).body.smtp_behaviour).toBeNull();
    expect((await patch(inbox.id, { smtp_behaviour: { delay_ms: 10 } }, outsider)).status).toBe(404);
    expect((await patch(randomUUID(), { smtp_behaviour: null })).status).toBe(404);
  });

  it("when an inbox rejects recipients, then its RCPT answers exactly the code and message, the other recipient gets the mail, and the log holds the refusal", async () => {
    const refusing = await createInbox({ reject_rcpt: { code: 554, message: "5.7.1 Not today, thanks" } });
    const plain = await createInbox();
    const subject = `reject ${randomBytes(3).toString("hex")}`;
    const out = await send(port(0), {
      to: [refusing.full_address, plain.full_address],
      message: message({ to: plain.full_address, subject }),
    });
    expect(out.rcpts.map((r) => r.line)).toEqual(["554 5.7.1 Not today, thanks", expect.stringMatching(/^250 /) as string]);
    expect(out.data?.code).toBe(250);
    expect((await emailsOf(plain.id)).map((e) => e.subject)).toEqual([subject]);
    expect(await emailsOf(refusing.id)).toEqual([]);

    const [attempt, ...others] = await smtpLog(refusing.id);
    expect(others).toEqual([]);
    expect(attempt).toMatchObject({
      mail_from: "sender@example.org",
      rcpt_to: refusing.full_address,
      message_id: null,
      code: 554,
      reply: "554 5.7.1 Not today, thanks",
    });
    expect(texts(attempt!.transcript).slice(-3)).toEqual([
      "250 Accepted",
      `RCPT TO:<${refusing.full_address}>`,
      "554 5.7.1 Not today, thanks",
    ]);
    expect(attempt!.transcript).toMatchObject({ client_ip: "127.0.0.1", helo: "client.test", tls: false });
    // an inbox without a behaviour keeps no log
    expect(await smtpLog(plain.id)).toEqual([]);
  });

  it("when an inbox limits the size, then a larger SIZE= is 552 at its RCPT, a larger message 552 after DATA, and its size counts after dot-unstuffing", async () => {
    // lines that start with a dot travel doubled ("..."): the wire is longer than the message
    const body = Array.from({ length: 40 }, (_, i) => `.line ${i}`).join("\r\n");
    const probe = await createInbox();
    const msg = (to: string) => message({ to, body, messageId: "<size@client.test>", subject: "sized" });
    expect((await send(port(0), { to: [probe.full_address], message: msg(probe.full_address) })).data?.code).toBe(250);
    const size = (await emailsOf(probe.id))[0]?.size_bytes as number;

    const exact = await createInbox({ max_size_bytes: size });
    // the same length for the same-length address: the message as received is exactly the limit
    const sameLength = exact.full_address.length === probe.full_address.length;
    expect(sameLength).toBe(true);
    expect((await send(port(1), { to: [exact.full_address], message: msg(exact.full_address) })).data?.code).toBe(250);

    const smaller = await createInbox({ max_size_bytes: size - 1 });
    const refused = await send(port(0), { to: [smaller.full_address], message: msg(smaller.full_address) });
    expect(refused.data?.line).toBe("552 5.3.4 Message size exceeds fixed maximum message size");
    expect(await emailsOf(smaller.id)).toEqual([]);

    const declared = await send(port(1), {
      to: [smaller.full_address, probe.full_address],
      mail: ` SIZE=${size}`,
      message: msg(probe.full_address),
    });
    expect(declared.mail.code).toBe(250);
    expect(declared.rcpts.map((r) => r.line)).toEqual([
      "552 5.3.4 Message size exceeds fixed maximum message size",
      expect.stringMatching(/^250 /) as string,
    ]);
    expect(declared.data?.code).toBe(250);

    const log = await smtpLog(smaller.id);
    expect(log.map((a) => [a.code, a.message_id])).toEqual([
      [552, null],
      [552, "<size@client.test>"],
    ]);
    for (const a of log) expect(texts(a.transcript).join("\n")).not.toContain(".line");
  });

  it("when an inbox defers the first two attempts, then they get 451 on either intake, the third is stored, a later copy at once, and the log lists the deferrals newest first", async () => {
    const inbox = await createInbox({ defer_first: 2 });
    const first = `<greylist-${randomBytes(4).toString("hex")}@client.test>`;
    const other = `<other-${randomBytes(4).toString("hex")}@client.test>`;
    const attempt = async (n: 0 | 1, messageId: string) =>
      (await send(port(n), { to: [inbox.full_address], message: message({ to: inbox.full_address, messageId, body: "greylisted body" }) }))
        .data?.line;

    // each attempt on a new connection, alternating between the two replicas
    expect(await attempt(0, first)).toBe("451 4.7.1 Please try again later");
    expect(await attempt(1, first)).toBe("451 4.7.1 Please try again later");
    expect(await attempt(0, first)).toBe("250 2.0.0 Message accepted");
    expect(await attempt(1, first)).toBe("250 2.0.0 Message accepted");
    // another message is counted on its own
    expect(await attempt(1, other)).toBe("451 4.7.1 Please try again later");
    expect(await emailsOf(inbox.id)).toHaveLength(2);

    const log = await smtpLog(inbox.id);
    expect(log.map((a) => [a.code, a.message_id])).toEqual([
      [451, other],
      [451, first],
      [451, first],
    ]);
    expect(log.map((a) => a.at)).toEqual([...log.map((a) => a.at)].sort().reverse());
    for (const a of log) {
      expect(texts(a.transcript).at(-1)).toBe("451 4.7.1 Please try again later");
      expect(texts(a.transcript)).toContain("DATA");
      expect(texts(a.transcript).join("\n")).not.toContain("greylisted body");
    }
  });

  it("when an inbox delays, then the reply to DATA comes no sooner than delay_ms after the body", async () => {
    const inbox = await createInbox({ delay_ms: 400 });
    let bodySentAt = 0;
    const out = await send(port(1), {
      to: [inbox.full_address],
      message: message({ to: inbox.full_address }),
      sent: () => (bodySentAt = Date.now()),
    });
    expect(out.data?.code).toBe(250);
    expect(Date.now() - bodySentAt).toBeGreaterThanOrEqual(400);
  });

  it("when the behaviour changes, then a transaction that starts after the PATCH answered meets it on both intakes", async () => {
    const inbox = await createInbox();
    const ok = (n: 0 | 1) => send(port(n), { to: [inbox.full_address], message: message({ to: inbox.full_address }) });
    expect((await ok(0)).data?.code).toBe(250);
    expect((await ok(1)).data?.code).toBe(250);
    expect((await patch(inbox.id, { smtp_behaviour: { reject_rcpt: { code: 450, message: "4.2.1 Busy" } } })).status).toBe(200);
    expect((await ok(0)).rcpts[0]?.line).toBe("450 4.2.1 Busy");
    expect((await ok(1)).rcpts[0]?.line).toBe("450 4.2.1 Busy");
    expect((await patch(inbox.id, { smtp_behaviour: null })).status).toBe(200);
    expect((await ok(1)).data?.code).toBe(250);
    expect((await ok(0)).data?.code).toBe(250);
  });

  it("when an inbox's log is full, then a new attempt pushes out the oldest", async () => {
    const inbox = await createInbox({ defer_first: 1 });
    const scope = { orgId, teamId };
    const transcript = { ip: "127.0.0.1", helo: null, tls: false, t0: 0, lines: [] };
    const start = Date.now() - 60_000;
    for (let i = 0; i <= ATTEMPTS_KEPT_PER_INBOX; i++) {
      await t.service.deps.data.hot.smtpLog.record({
        id: randomUUID(),
        scope,
        inboxId: inbox.id,
        at: new Date(start + i),
        mailFrom: "sender@example.org",
        rcptTo: inbox.full_address,
        messageId: `<${i}@client.test>`,
        code: 451,
        reply: "451 4.7.1 Please try again later",
        transcript,
      });
    }
    const first = await t.call<{ data: SmtpAttempt[]; total: number }>("GET", `/inboxes/${inbox.id}/smtp-log?per_page=2`, { actor: owner });
    expect(first.body.total).toBe(ATTEMPTS_KEPT_PER_INBOX);
    expect(first.body.data.map((a) => a.message_id)).toEqual([
      `<${ATTEMPTS_KEPT_PER_INBOX}@client.test>`,
      `<${ATTEMPTS_KEPT_PER_INBOX - 1}@client.test>`,
    ]);
    const last = await t.call<{ data: SmtpAttempt[] }>("GET", `/inboxes/${inbox.id}/smtp-log?per_page=100&page=10`, { actor: owner });
    expect(last.body.data.at(-1)?.message_id).toBe("<1@client.test>");
    // an attempt for an inbox of another team is not recorded
    await t.service.deps.data.hot.smtpLog.record({
      id: randomUUID(),
      scope: { orgId, teamId: randomUUID() },
      inboxId: inbox.id,
      at: new Date(),
      mailFrom: "x@example.org",
      rcptTo: inbox.full_address,
      messageId: "<foreign@client.test>",
      code: 451,
      reply: "451 x",
      transcript,
    });
    const newest = await t.call<{ data: SmtpAttempt[]; total: number }>("GET", `/inboxes/${inbox.id}/smtp-log?per_page=1`, {
      actor: owner,
    });
    expect(newest.body).toMatchObject({
      total: ATTEMPTS_KEPT_PER_INBOX,
      data: [{ message_id: `<${ATTEMPTS_KEPT_PER_INBOX}@client.test>` }],
    });
  });

  it("when an email is stored, then its transcript has the conversation with times, AUTH credentials hidden, no body, and only its own transaction", async () => {
    const inbox = await createInbox();
    const smtp = await Smtp.open(port(0));
    const secret = Buffer.from("\u0000user\u0000hunter2").toString("base64");
    expect((await smtp.command(`AUTH PLAIN ${secret}`)).code).toBeGreaterThanOrEqual(500);
    for (const subject of ["first on the connection", "second on the connection"]) {
      expect((await smtp.command("MAIL FROM:<sender@example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      expect((await smtp.data(message({ to: inbox.full_address, subject, body: "the secret body" }))).code).toBe(250);
    }
    smtp.close();
    const emails = await emailsOf(inbox.id);
    const second = emails.find((e) => e.subject === "second on the connection");
    const res = await t.call<SmtpTranscript>("GET", `/emails/${second?.id}/transcript`, { actor: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_ip: "127.0.0.1", helo: "client.test", tls: false });
    const lines = texts(res.body);
    expect(lines[0]).toMatch(/^220 /);
    expect(lines).toContain("EHLO client.test");
    expect(lines).toContain("AUTH PLAIN [redacted]");
    expect(lines.filter((l) => l.startsWith("MAIL FROM"))).toEqual(["MAIL FROM:<sender@example.org>"]);
    expect(lines.slice(-7)).toEqual([
      "MAIL FROM:<sender@example.org>",
      "250 Accepted",
      `RCPT TO:<${inbox.full_address}>`,
      "250 Accepted",
      "DATA",
      expect.stringMatching(/^354 /) as string,
      "250 2.0.0 Message accepted",
    ]);
    const all = JSON.stringify(res.body);
    for (const hidden of [secret, "hunter2", "the secret body", "second on the connection"]) expect(all).not.toContain(hidden);
    const times = res.body.lines.map((l) => Date.parse(l.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(res.body.lines.map((l) => l.dir)).toEqual(lines.map((l) => (/^\d{3}[ -]/.test(l) ? "s" : "c")));

    expect((await t.call("GET", `/emails/${second?.id}/transcript`, { actor: outsider })).status).toBe(404);
    expect((await t.call("GET", `/inboxes/${inbox.id}/smtp-log`, { actor: outsider })).status).toBe(404);
  });
});
