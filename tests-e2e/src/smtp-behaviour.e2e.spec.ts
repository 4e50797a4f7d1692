import { randomBytes, randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { registerUser, teamWithDomain, type Api } from "./world";

interface InboxView {
  id: string;
  full_address: string;
  smtp_behaviour: Record<string, unknown> | null;
}
interface Attempt {
  id: string;
  at: string;
  mail_from: string;
  rcpt_to: string;
  message_id: string | null;
  code: number;
  reply: string;
  transcript: { client_ip: string; helo: string | null; tls: boolean; lines: Array<{ at: string; dir: "c" | "s"; text: string }> };
}
/** What nodemailer rejects with when the server refuses. */
type SendError = Error & { responseCode?: number; response?: string; command?: string };

/**
 * Extensions section 8 through the public ports: the behaviour set over the gateway, and real
 * senders on 127.0.0.1 against the SMTP intake: nodemailer's SMTP transport (one connection per
 * message, nothing retried) and, for greylisting, a sender that retries the same message on 451
 * over a new connection each time, as a mail server's queue does.
 */
describe("SMTP behaviour per inbox, with real senders", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  /** nodemailer's SMTP transport: a new connection per message, no pool, nothing retried. */
  const transport = (port = system.ports.smtp) =>
    nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, pool: false });

  async function createInbox(smtpBehaviour?: unknown): Promise<InboxView> {
    const res = await api<InboxView>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, ...(smtpBehaviour !== undefined ? { smtp_behaviour: smtpBehaviour } : {}) },
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  async function smtpLog(inboxId: string): Promise<Attempt[]> {
    const res = await api<{ data: Attempt[] }>("GET", `/inboxes/${inboxId}/smtp-log`, { token: world.owner.token });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  async function emails(inboxId: string): Promise<Array<{ id: string; subject: string }>> {
    const res = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, {
      token: world.owner.token,
    });
    return res.body.data;
  }
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: SendError) => err,
    );
  const textOf = (a: Attempt) => a.transcript.lines.map((l) => l.text).join("\n");
  /** The list once it holds something (the intake answers 250 once the mail is durable; the list may lag a moment). */
  const waitForList = <T>(list: () => Promise<T[]>) =>
    waitFor(async () => ((await list()).length > 0 ? list() : null), { what: "the mail" });

  it("when a behaviour is set over the gateway, then it shows on the inbox; bad values are 400 in the error envelope, and a key needs team.inboxes.manage", async () => {
    const inbox = await createInbox({ delay_ms: 10 });
    expect(inbox.smtp_behaviour).toEqual({ delay_ms: 10 });
    const path = `/inboxes/${inbox.id}`;
    const patched = await api<InboxView>("PATCH", path, { token: world.owner.token, body: { smtp_behaviour: { defer_first: 3 } } });
    expect(patched).toMatchObject({ status: 200, body: { smtp_behaviour: { defer_first: 3 } } });
    const unknown = await api("PATCH", path, { token: world.owner.token, body: { smtp_behaviour: { defer_first: 3, tarpit: true } } });
    expect(unknown).toMatchObject({ status: 400, body: { code: "validation_error", error: expect.any(String) as string } });
    const outOfRange = await api("PATCH", path, {
      token: world.owner.token,
      body: { smtp_behaviour: { reject_rcpt: { code: 600, message: "x" } } },
    });
    expect(outOfRange).toMatchObject({ status: 400, body: { code: "validation_error" } });

    const keys = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const viewer = await api<{ raw_key: string }>("POST", keys, {
      token: world.owner.token,
      body: { name: "view", scopes: ["team.inboxes.view"] },
    });
    const manager = await api<{ raw_key: string }>("POST", keys, {
      token: world.owner.token,
      body: { name: "manage", scopes: ["team.inboxes.view", "team.inboxes.manage"] },
    });
    expect((await api("PATCH", path, { token: viewer.body.raw_key, body: { smtp_behaviour: null } })).status).toBe(403);
    const cleared = await api<InboxView>("PATCH", path, { token: manager.body.raw_key, body: { smtp_behaviour: null } });
    expect(cleared).toMatchObject({ status: 200, body: { smtp_behaviour: null } });
    expect((await api<InboxView>("GET", path, { token: world.owner.token })).body.smtp_behaviour).toBeNull();
  });

  it("when an inbox rejects recipients, then nodemailer hears exactly its reply for that inbox and the other recipient gets the mail", async () => {
    const refusing = await createInbox({ reject_rcpt: { code: 550, message: "5.7.1 Relaying denied for this test" } });
    const other = await createInbox();
    const subject = `reject ${randomBytes(3).toString("hex")}`;
    const info = await transport().sendMail({
      from: "qa@sender.test",
      to: [refusing.full_address, other.full_address],
      subject,
      text: "hello",
    });
    expect(info.accepted).toEqual([other.full_address]);
    expect(info.rejected).toEqual([refusing.full_address]);
    const alone = await refusal(transport().sendMail({ from: "qa@sender.test", to: refusing.full_address, subject, text: "hello" }));
    expect(alone).toMatchObject({ responseCode: 550 });
    expect(alone?.message).toContain("550 5.7.1 Relaying denied for this test");
    expect((await emails(other.id)).map((e) => e.subject)).toEqual([subject]);

    const log = await smtpLog(refusing.id);
    expect(log.map((a) => [a.code, a.reply, a.rcpt_to, a.mail_from])).toEqual([
      [550, "550 5.7.1 Relaying denied for this test", refusing.full_address, "qa@sender.test"],
      [550, "550 5.7.1 Relaying denied for this test", refusing.full_address, "qa@sender.test"],
    ]);
    expect(Date.parse(log[0]!.at)).toBeGreaterThanOrEqual(Date.parse(log[1]!.at));
    expect(log[0]?.transcript.lines.at(-1)).toMatchObject({ dir: "s", text: "550 5.7.1 Relaying denied for this test" });
  });

  it("when an outsider asks for an inbox's SMTP log or an email's transcript, then the answers are exactly those of unknown ids", async () => {
    const refusing = await createInbox({ reject_rcpt: { code: 550, message: "5.7.1 Not for outsiders" } });
    const receiving = await createInbox();
    const subject = `outsider ${randomBytes(3).toString("hex")}`;
    const info = await transport().sendMail({
      from: "qa@sender.test",
      to: [refusing.full_address, receiving.full_address],
      subject,
      text: "hi",
    });
    expect(info.accepted).toEqual([receiving.full_address]);
    const [attempt] = await smtpLog(refusing.id);
    expect(attempt?.code).toBe(550);
    const [email] = await emails(receiving.id);
    expect(email?.subject).toBe(subject);
    const own = await api("GET", `/emails/${email?.id}/transcript`, { token: world.owner.token });
    expect(own.status).toBe(200);

    // the owner of another org, and the owner of another team's org with a domain of its own
    const strangers = [await registerUser(api, "stranger"), (await teamWithDomain(api)).owner];
    const seen = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });
    for (const stranger of strangers) {
      const get = async (path: string) => seen(await api("GET", path, { token: stranger.token }));
      const log = await get(`/inboxes/${refusing.id}/smtp-log`);
      expect(log.status).toBe(404);
      expect(log).toEqual(await get(`/inboxes/${randomUUID()}/smtp-log`));
      const transcript = await get(`/emails/${email?.id}/transcript`);
      expect(transcript.status).toBe(404);
      expect(transcript).toEqual(await get(`/emails/${randomUUID()}/transcript`));
    }
  });

  it("when an inbox limits the size, then nodemailer's larger message gets 552 after DATA, a smaller one goes through, and a larger SIZE= is refused at RCPT", async () => {
    const inbox = await createInbox({ max_size_bytes: 2000 });
    const big = await refusal(
      transport().sendMail({ from: "qa@sender.test", to: inbox.full_address, subject: "big", text: "x".repeat(3000) }),
    );
    expect(big).toMatchObject({ responseCode: 552 });
    expect(big?.response).toBe("552 5.3.4 Message size exceeds fixed maximum message size");
    await transport().sendMail({ from: "qa@sender.test", to: inbox.full_address, subject: "small", text: "x".repeat(100) });
    expect((await emails(inbox.id)).map((e) => e.subject)).toEqual(["small"]);

    // nodemailer does not declare SIZE: a client that does is refused before it sends anything
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<qa@sender.test> SIZE=2001")).code).toBe(250);
      expect(await s.command(`RCPT TO:<${inbox.full_address}>`)).toEqual({
        code: 552,
        text: "5.3.4 Message size exceeds fixed maximum message size",
      });
    } finally {
      await s.quit();
    }
    const log = await smtpLog(inbox.id);
    expect(log.map((a) => a.code)).toEqual([552, 552]);
    expect(textOf(log[1]!)).not.toContain("xxxxxxxx");
  });

  it("when an inbox delays, then nodemailer's reply comes no sooner than delay_ms", async () => {
    const inbox = await createInbox({ delay_ms: 700 });
    const started = Date.now();
    const info = await transport().sendMail({ from: "qa@sender.test", to: inbox.full_address, subject: "slow", text: "hello" });
    expect(info.response).toBe("250 2.0.0 Message accepted");
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  /**
   * A sender's queue in a loop: the same message (same Message-ID) again on 451, each attempt on
   * a new connection (a transport per attempt), up to `max` attempts; each attempt's reply.
   */
  async function retryingSend(to: string, messageId: string, ports: number[], max = 10): Promise<string[]> {
    const replies: string[] = [];
    for (let attempt = 0; attempt < max; attempt++) {
      const port = ports[attempt % ports.length] as number;
      const mail = { from: "queue@sender.test", to, subject: "greylisted", text: "the greylisted body", messageId };
      const connection = transport(port);
      try {
        const info = await connection.sendMail(mail);
        replies.push(info.response);
        return replies;
      } catch (err) {
        const e = err as SendError;
        replies.push(e.response ?? e.message);
        if (e.responseCode !== 451) return replies;
      } finally {
        connection.close();
      }
    }
    return replies;
  }

  it("when an inbox defers the first attempts, then a retrying sender is deferred exactly that often over new connections, then delivered; a later copy is accepted at once", async () => {
    const inbox = await createInbox({ defer_first: 3 });
    const messageId = `<retry-${randomBytes(4).toString("hex")}@sender.test>`;
    const deferred = "451 4.7.1 Please try again later";
    expect(await retryingSend(inbox.full_address, messageId, [system.ports.smtp])).toEqual([
      deferred,
      deferred,
      deferred,
      "250 2.0.0 Message accepted",
    ]);
    expect(await retryingSend(inbox.full_address, messageId, [system.ports.smtp])).toEqual(["250 2.0.0 Message accepted"]);
    expect(await emails(inbox.id)).toHaveLength(2);

    const log = await smtpLog(inbox.id);
    expect(log.map((a) => [a.code, a.reply, a.message_id])).toEqual(Array.from({ length: 3 }, () => [451, deferred, messageId]));
    const times = log.map((a) => Date.parse(a.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const a of log) {
      expect(a.transcript.lines.filter((l) => l.dir === "c").map((l) => l.text.split(/[ :]/)[0])).toEqual(["EHLO", "MAIL", "RCPT", "DATA"]);
      expect(textOf(a)).not.toContain("the greylisted body");
    }
    // the stored email's transcript: the conversation without the body
    const [email] = await emails(inbox.id);
    const transcript = await api<Attempt["transcript"]>("GET", `/emails/${email?.id}/transcript`, { token: world.owner.token });
    expect(transcript.status).toBe(200);
    expect(transcript.body.lines.at(-1)).toMatchObject({ dir: "s", text: "250 2.0.0 Message accepted" });
    expect(transcript.body.lines.map((l) => l.text)).toContain("DATA");
    expect(JSON.stringify(transcript.body)).not.toContain("the greylisted body");
  });

  describe("transcripts", () => {
    type Transcript = Attempt["transcript"];
    const clientLines = (t: Transcript) => t.lines.filter((l) => l.dir === "c").map((l) => l.text);
    async function emailsOf(token: string, inboxId: string): Promise<Array<{ id: string; subject: string }>> {
      const res = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, { token });
      expect(res.status).toBe(200);
      return res.body.data;
    }
    async function transcriptOf(token: string, emailId: string): Promise<Transcript> {
      const res = await api<Transcript>("GET", `/emails/${emailId}/transcript`, { token });
      expect(res.status).toBe(200);
      return res.body;
    }

    it("when one message goes to two tenants' inboxes (one Bcc'd), an unknown address and a refusing inbox, then each transcript shows only its own RCPT TO and reply", async () => {
      const other = await teamWithDomain(api);
      const seen = await createInbox();
      const refusing = await createInbox({ reject_rcpt: { code: 550, message: "5.7.1 Not here" } });
      const bccRes = await api<InboxView>("POST", "/inboxes", {
        token: other.owner.token,
        body: { domain_assignment_id: other.assignmentId },
      });
      expect(bccRes.status).toBe(201);
      const bcc = bccRes.body;
      const unknown = `nobody-${randomBytes(3).toString("hex")}@${seen.full_address.split("@")[1]}`;
      const subject = `bcc ${randomBytes(3).toString("hex")}`;
      const smtp = await SmtpSession.open(system.ports.smtp);
      try {
        expect((await smtp.command("MAIL FROM:<qa@sender.test>")).code).toBe(250);
        expect((await smtp.command(`RCPT TO:<${bcc.full_address}>`)).code).toBe(250);
        expect((await smtp.command(`RCPT TO:<${unknown}>`)).code).toBe(550);
        expect((await smtp.command(`RCPT TO:<${seen.full_address}>`)).code).toBe(250);
        expect((await smtp.command(`RCPT TO:<${refusing.full_address}>`)).code).toBe(550);
        // the headers name only the visible recipient: the other inbox is Bcc'd
        expect((await smtp.data(buildMessage({ from: "qa@sender.test", to: seen.full_address, subject, text: "hello" }))).code).toBe(250);
      } finally {
        await smtp.quit();
      }
      const addresses = [bcc.full_address, unknown, seen.full_address, refusing.full_address];
      const onlyOwn = (t: Transcript, own: string, reply: string) => {
        const lines = t.lines.map((l) => l.text);
        const rcpt = lines.findIndex((l) => /^RCPT/i.test(l));
        expect(lines.filter((l) => /^RCPT/i.test(l))).toEqual([`RCPT TO:<${own}>`]);
        expect(lines[rcpt + 1]).toBe(reply);
        for (const a of addresses.filter((x) => x !== own)) expect(JSON.stringify(t)).not.toContain(a);
      };

      const [mine] = await waitForList(() => emailsOf(world.owner.token, seen.id));
      const visible = await transcriptOf(world.owner.token, mine!.id);
      onlyOwn(visible, seen.full_address, "250 Accepted");
      // the other lines of the session as before
      expect(clientLines(visible).map((l) => l.split(/[ :]/)[0])).toEqual(["EHLO", "MAIL", "RCPT", "DATA"]);
      expect(visible.lines.at(-1)).toMatchObject({ dir: "s", text: "250 2.0.0 Message accepted" });

      const [theirs] = await waitForList(() => emailsOf(other.owner.token, bcc.id));
      onlyOwn(await transcriptOf(other.owner.token, theirs!.id), bcc.full_address, "250 Accepted");

      const [attempt] = await smtpLog(refusing.id);
      expect(attempt?.code).toBe(550);
      onlyOwn(attempt!.transcript, refusing.full_address, "550 5.7.1 Not here");
      expect(attempt!.transcript.lines.at(-1)).toMatchObject({ dir: "s", text: "550 5.7.1 Not here" });
    });

    it("when a client sends AUTH LOGIN and its base64 lines, or AUTH PLAIN with credentials, then the transcript keeps none of them", async () => {
      const inbox = await createInbox();
      const subject = `auth ${randomBytes(3).toString("hex")}`;
      const user = Buffer.from(`user-${randomBytes(3).toString("hex")}`).toString("base64");
      const password = Buffer.from(`pass-${randomBytes(3).toString("hex")}`).toString("base64");
      const plain = Buffer.from(`\0someone\0${randomBytes(4).toString("hex")}`).toString("base64");
      const smtp = await SmtpSession.open(system.ports.smtp);
      try {
        // AUTH is not offered: each line is refused, and a blind client sends them all the same
        expect((await smtp.command("AUTH LOGIN")).code).toBeGreaterThanOrEqual(500);
        expect((await smtp.command(user)).code).toBeGreaterThanOrEqual(500);
        expect((await smtp.command(password)).code).toBeGreaterThanOrEqual(500);
        expect((await smtp.command(`AUTH PLAIN ${plain}`)).code).toBeGreaterThanOrEqual(500);
        expect((await smtp.command("MAIL FROM:<qa@sender.test>")).code).toBe(250);
        expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
        expect((await smtp.data(buildMessage({ from: "qa@sender.test", to: inbox.full_address, subject, text: "hello" }))).code).toBe(250);
      } finally {
        await smtp.quit();
      }
      const [email] = await waitForList(() => emailsOf(world.owner.token, inbox.id));
      const transcript = await transcriptOf(world.owner.token, email!.id);
      const text = JSON.stringify(transcript);
      for (const secret of [user, password, plain]) expect(text).not.toContain(secret);
      expect(clientLines(transcript)).toEqual([
        "EHLO e2e.test",
        "AUTH LOGIN",
        "[redacted]",
        "[redacted]",
        "AUTH PLAIN [redacted]",
        "MAIL FROM:<qa@sender.test>",
        `RCPT TO:<${inbox.full_address}>`,
        "DATA",
      ]);
    });
  });
});
