import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { RpcName, subjects, type OutboundMessage } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { SecretBox } from "@burnbox/service-kit/security";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { startIntake, startService, type RunningIntake, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import type { ClaimedOutbound } from "../src/data/outbound.repository";
import { deliverOutbound } from "../src/domain/outbound/deliver-outbound.use-case";
import { DKIM_KEY_TTL_MS } from "../src/domain/outbound/outbound-signing";
import type { SmtpTarget } from "../src/domain/outbound/mail-sender";
import { smtpSender } from "../src/adapters/smtp-sender";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "out.burnbox.example";
const ALLOWED = "@partner.example";
/** The domain's DKIM key as tenancy holds it (extensions 10): the private half sealed with the shared `encryption.key`. */
const ENCRYPTION_KEY = randomBytes(32).toString("hex");
const DKIM = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "der" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
const DKIM_TXT = `v=DKIM1; k=rsa; p=${DKIM.publicKey.toString("base64")}`;

/** The DKIM-Signature header on top of a message (folded lines included), and the bytes below it. */
function splitSignature(raw: Buffer): { signature: string; rest: Buffer } {
  const text = raw.toString("latin1");
  const end = text.search(/\r\n(?![ \t])/);
  expect(text.startsWith("DKIM-Signature:")).toBe(true);
  return { signature: text.slice(0, end + 2), rest: raw.subarray(end + 2) };
}

/** The relay the platform mailer points at: it keeps every message it took, and answers as `mode` says. */
class Relay {
  received: Array<{ from: string; to: string[]; raw: Buffer }> = [];
  mode: "ok" | "defer" | "reject" = "ok";
  readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (this.mode === "defer") return done(Object.assign(new Error("4.3.0 try later"), { responseCode: 451 }));
        if (this.mode === "reject") return done(Object.assign(new Error("5.7.1 no thanks"), { responseCode: 550 }));
        const mailFrom = session.envelope.mailFrom;
        this.received.push({
          from: mailFrom ? mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        done();
      });
    },
  });
  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return (this.server.server.address() as AddressInfo).port;
  }
}

describe("mail out (extensions 10): the durable outbound queue, on real Postgres and NATS", () => {
  let t: TestService<InboxConfig, RunningService>;
  let intake: RunningIntake;
  let intakeInfra: Infra;
  const relay = new Relay();
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  // each team has its own hourly budget (max_per_hour 10): `signed` holds the DKIM and audit tests'
  const teams = { main: randomUUID(), limited: randomUUID(), unverified: randomUUID(), signed: randomUUID() };
  const assignments = { main: randomUUID(), limited: randomUUID(), unverified: randomUUID(), signed: randomUUID() };
  /** Assignments whose domain lost its verification (after their inbox was made). */
  const unverified = new Set<string>();
  let offset = 0;
  const now = () => Date.now() + offset;
  const intakeTarget: SmtpTarget = {
    host: "127.0.0.1",
    address: "127.0.0.1",
    port: 0,
    secure: false,
    requireTls: false,
    ignoreTls: true,
    user: "",
    password: "",
  };
  /** The crash seam: a message to one of these "kills" its worker after the answer, before the row records it. */
  const crashing = new Set<string>(["crash@partner.example"]);
  let releaseCrashed: () => void = () => undefined;
  const crashed = new Promise<void>((r) => (releaseCrashed = r));
  const afterAnswer = async (m: ClaimedOutbound) => {
    if (m.recipients.some((r) => crashing.has(r))) await crashed;
  };

  /** Tenancy's answer to `tenancy.dkim_key`: stopped, tenancy is away (no one answers the question). */
  let dkimKeys: { stop(): Promise<void> | void } | null = null;
  /** How often the key was asked for. */
  let dkimAsked = 0;
  const serveDkimKeys = () =>
    serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.dkimKey,
      async (req) => {
        dkimAsked += 1;
        return {
          key:
            req.domain_name === DOMAIN
              ? { domain_name: DOMAIN, selector: "burnbox", private_key_sealed: new SecretBox(ENCRYPTION_KEY).seal(DKIM.privateKey) }
              : null,
        };
      },
      t.infra.logger,
    );

  beforeAll(async () => {
    const relayPort = await relay.listen();
    t = await startInboxTestService("outb", {
      start: (c, i) => startService(c, i, { now, delivery: { intake: intakeTarget, afterAnswer } }),
      overrides: () => ({
        mail: { smtp_host: "127.0.0.1", smtp_port: relayPort },
        outbound: { max_per_hour: 10, poll_interval: "1h" },
        encryption: { key: ENCRYPTION_KEY },
      }),
    });
    const teamOf = Object.fromEntries(Object.entries(assignments).map(([k, v]) => [v, teams[k as keyof typeof teams]]));
    stops.push(
      serveRpc(
        t.infra.nc,
        t.ns,
        RpcName.getAssignment,
        async (req) => {
          const team = teamOf[req.assignment_id];
          if (!team) return { assignment: null };
          return {
            assignment: {
              id: req.assignment_id,
              org_id: orgId,
              team_id: team,
              domain_id: randomUUID(),
              domain_name: DOMAIN,
              access_level: "full" as const,
              domain_verified: !unverified.has(req.assignment_id),
              team_archived: false,
              default_ttl_seconds: 600,
              max_ttl_seconds: 86400,
              max_inboxes_per_domain: 1000,
              outbound_allowed_recipients: [ALLOWED],
            },
          };
        },
        t.infra.logger,
      ),
      serveRpc(t.infra.nc, t.ns, RpcName.authorize, async () => ({ allowed: true, reason: null }), t.infra.logger),
      serveRpc(t.infra.nc, t.ns, RpcName.mailerConfig, async () => ({ mailer: null }), t.infra.logger),
      { stop: async () => dkimKeys?.stop() },
    );
    dkimKeys = serveDkimKeys();
    const sub = t.infra.nc.subscribe(subjects(t.ns).eventsWildcard, { callback: (_err, msg) => void events.push(msg.json()) });
    stops.push({ stop: async () => sub.unsubscribe() });
    const config = loadInboxConfig({}, { ...t.config, http: { port: 0, host: "127.0.0.1" } });
    intakeInfra = await startInfra({ config, database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR }, logDestination: new LogCapture() });
    intake = await startIntake(config, intakeInfra);
    intakeTarget.port = intake.smtpPort;
  });
  afterAll(async () => {
    releaseCrashed();
    await Promise.all(stops.map((s) => s.stop()));
    await intake?.stop();
    await intakeInfra?.close();
    await t?.stop();
    await new Promise<void>((r) => relay.server.close(() => r()));
  });

  type InboxView = { id: string; full_address: string };
  async function createInbox(assignment = assignments.main): Promise<InboxView> {
    const res = await t.call<InboxView>("POST", "/inboxes", { actor: owner, body: { domain_assignment_id: assignment } });
    expect(res.status).toBe(201);
    return res.body;
  }
  const send = (inboxId: string, body: Record<string, unknown>) =>
    t.call<{ outbound_id: string; message_id: string; error?: string; retry_after?: number }>("POST", `/inboxes/${inboxId}/send`, {
      actor: owner,
      body,
    });
  async function outbound(inboxId: string): Promise<OutboundMessage[]> {
    const res = await t.call<{ data: OutboundMessage[] }>("GET", `/inboxes/${inboxId}/outbound`, { actor: owner });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  const settled = async (inboxId: string, id: string) =>
    waitFor(async () => {
      const m = (await outbound(inboxId)).find((o) => o.id === id);
      return m && m.status !== "queued" ? m : undefined;
    });
  async function emailsOf(inboxId: string) {
    const res = await t.call<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, { actor: owner });
    return res.body.data;
  }

  it("when a message is sent to an allowed address, then the relay gets it once with the fixed Message-ID and the log says sent", async () => {
    const inbox = await createInbox();
    const res = await send(inbox.id, { to: ["qa@partner.example"], subject: "Hello out", text: "plain body", headers: { "X-Run": "7" } });
    expect(res.status).toBe(202);
    const entry = await settled(inbox.id, res.body.outbound_id);
    expect(entry).toMatchObject({
      kind: "send",
      status: "sent",
      attempts: 1,
      to: ["qa@partner.example"],
      subject: "Hello out",
      message_id: res.body.message_id,
    });
    expect(entry.last_reply).toMatch(/^250/);
    const got = relay.received.filter((r) => r.to.includes("qa@partner.example"));
    expect(got).toHaveLength(1);
    const mail = await simpleParser(got[0]!.raw);
    expect(mail.messageId).toBe(res.body.message_id);
    expect(mail.from?.text).toBe(inbox.full_address);
    expect(mail.headers.get("x-run")).toBe("7");
    expect(got[0]!.from).toBe(inbox.full_address);
  });

  it("when a message goes out, then it is DKIM-signed with its domain's key and the signature verifies against the published record", async () => {
    const inbox = await createInbox(assignments.signed);
    const res = await send(inbox.id, { to: ["dkim@partner.example"], subject: "Signed", text: "signed body", html: "<p>signed</p>" });
    expect((await settled(inbox.id, res.body.outbound_id)).status).toBe("sent");
    const got = relay.received.find((r) => r.to.includes("dkim@partner.example"))!;
    const { signature } = splitSignature(got.raw);
    expect(signature).toMatch(/\bd=out\.burnbox\.example;/);
    expect(signature).toMatch(/\bs=burnbox;/);
    expect(signature).toMatch(/\ba=rsa-sha256;/);
    const resolver = async (name: string, type: string) => {
      if (type === "TXT" && name === `burnbox._domainkey.${DOMAIN}`) return [[DKIM_TXT.slice(0, 200), DKIM_TXT.slice(200)]];
      throw Object.assign(new Error("no such name"), { code: "ENOTFOUND" });
    };
    const verified = await dkimVerify(got.raw, { resolver });
    expect(verified.results.map((r) => [r.status.result, r.signingDomain, r.selector])).toEqual([["pass", DOMAIN, "burnbox"]]);
    // one byte changed below the signature: its body hash no longer matches (extensions 3: fail or neutral)
    const tampered = Buffer.from(got.raw.toString("latin1").replace("signed body", "signed bodY"), "latin1");
    expect(["fail", "neutral"]).toContain((await dkimVerify(tampered, { resolver })).results[0]?.status.result);
    // the private key is never in a log line
    expect(t.logs.text()).not.toContain(DKIM.privateKey.split("\n")[1]);
  });

  it("when tenancy is away, then nothing goes out unsigned: the message stays queued and leaves signed once tenancy answers", async () => {
    const inbox = await createInbox(assignments.signed);
    // past the time the key read by the earlier messages signs for
    offset += DKIM_KEY_TTL_MS + 1;
    await dkimKeys?.stop();
    dkimKeys = null;
    try {
      const res = await send(inbox.id, { to: ["away@partner.example"], subject: "Signed or not at all", text: "x" });
      expect(res.status).toBe(202);
      // the attempt at queueing and another pass once its claim has lapsed: the key cannot be read either time
      await t.service.outbound.runNow();
      offset += 10 * 60_000;
      await t.service.outbound.runNow();
      expect(relay.received.some((r) => r.to.includes("away@partner.example"))).toBe(false);
      expect((await outbound(inbox.id)).find((o) => o.id === res.body.outbound_id)?.status).toBe("queued");
      dkimKeys = serveDkimKeys();
      offset += 10 * 60_000;
      await t.service.outbound.runNow();
      expect((await settled(inbox.id, res.body.outbound_id)).status).toBe("sent");
      const got = relay.received.filter((r) => r.to.includes("away@partner.example"));
      expect(got).toHaveLength(1);
      expect(splitSignature(got[0]!.raw).signature).toMatch(/\bd=out\.burnbox\.example;/);
    } finally {
      dkimKeys ??= serveDkimKeys();
    }
  });

  it("when a domain's messages go out within the key's TTL, then tenancy is asked for the key once, and again after it", async () => {
    const inbox = await createInbox(assignments.signed);
    offset += DKIM_KEY_TTL_MS + 1;
    const asked = dkimAsked;
    for (const to of ["ttl1@partner.example", "ttl2@partner.example"]) {
      const res = await send(inbox.id, { to: [to], subject: "Signed once", text: "x" });
      expect((await settled(inbox.id, res.body.outbound_id)).status).toBe("sent");
    }
    expect(dkimAsked - asked).toBe(1);
    offset += DKIM_KEY_TTL_MS + 1;
    const res = await send(inbox.id, { to: ["ttl3@partner.example"], subject: "Signed again", text: "x" });
    expect((await settled(inbox.id, res.body.outbound_id)).status).toBe("sent");
    expect(dkimAsked - asked).toBe(2);
    for (const to of ["ttl1@partner.example", "ttl2@partner.example", "ttl3@partner.example"])
      expect(splitSignature(relay.received.find((r) => r.to.includes(to))!.raw).signature).toMatch(/\bd=out\.burnbox\.example;/);
  });

  it("when send, reply and release are each queued, then each writes one audit entry naming the outbound id", async () => {
    const a = await createInbox(assignments.signed);
    const b = await createInbox(assignments.signed);
    const sent = await send(a.id, { to: [b.full_address], subject: "Audited", text: "x" });
    await settled(a.id, sent.body.outbound_id);
    const [inB] = await waitFor(async () => {
      const list = await emailsOf(b.id);
      return list.length > 0 ? list : undefined;
    });
    const replied = await t.call<{ outbound_id: string }>("POST", `/emails/${inB!.id}/reply`, { actor: owner, body: { text: "ok" } });
    const released = await t.call<{ outbound_id: string }>("POST", `/emails/${inB!.id}/release`, {
      actor: owner,
      body: { to: ["audit@partner.example"] },
    });
    expect([replied.status, released.status]).toEqual([202, 202]);
    const auditOf = (outboundId: string) =>
      events.filter(
        (e) => e.type === "audit.recorded" && (e.data.metadata as { outbound_id?: string } | undefined)?.outbound_id === outboundId,
      );
    const cases = [
      { id: sent.body.outbound_id, action: "email.sent", target_type: "inbox", target_id: a.id },
      { id: replied.body.outbound_id, action: "email.replied", target_type: "email", target_id: inB!.id },
      { id: released.body.outbound_id, action: "email.released", target_type: "email", target_id: inB!.id },
    ];
    for (const c of cases) {
      const [entry] = await waitFor(async () => (auditOf(c.id).length > 0 ? auditOf(c.id) : undefined), { what: c.action });
      expect(auditOf(c.id)).toHaveLength(1);
      expect(entry!.data).toMatchObject({ action: c.action, target_type: c.target_type, target_id: c.target_id });
    }
  });

  it("when a recipient is neither allowed nor an inbox of BurnBox, then 403 names it and nothing is queued", async () => {
    const inbox = await createInbox();
    const res = await send(inbox.id, { to: ["qa@partner.example", "x@elsewhere.example"], subject: "no", text: "no" });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("recipient not allowed: x@elsewhere.example");
    expect(await outbound(inbox.id)).toEqual([]);
  });

  it("when the inbox's domain is no longer verified, then 409 and nothing is queued", async () => {
    const inbox = await createInbox(assignments.unverified);
    unverified.add(assignments.unverified);
    const res = await send(inbox.id, { to: ["qa@partner.example"], subject: "no", text: "no" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("domain is not verified");
    expect(await outbound(inbox.id)).toEqual([]);
  });

  it("when the inbox is unknown, then send and the log answer 404", async () => {
    expect((await send(randomUUID(), { to: ["qa@partner.example"], subject: "no", text: "no" })).status).toBe(404);
    expect((await t.call("GET", `/inboxes/${randomUUID()}/outbound`, { actor: owner })).status).toBe(404);
    expect((await t.call("POST", `/emails/${randomUUID()}/reply`, { actor: owner, body: { text: "x" } })).status).toBe(404);
  });

  it("when an inbox sends to another, then it arrives through the intake; the reply threads back with In-Reply-To and References", async () => {
    const a = await createInbox();
    const b = await createInbox();
    const sent = await send(a.id, { to: [b.full_address], subject: "Ping", text: "are you there?" });
    expect(sent.status).toBe(202);
    expect((await settled(a.id, sent.body.outbound_id)).status).toBe("sent");
    const [inB] = await waitFor(async () => {
      const list = await emailsOf(b.id);
      return list.length > 0 ? list : undefined;
    });
    const replied = await t.call<{ outbound_id: string; message_id: string }>("POST", `/emails/${inB!.id}/reply`, {
      actor: owner,
      body: { text: "yes" },
    });
    expect(replied.status).toBe(202);
    expect((await settled(b.id, replied.body.outbound_id)).status).toBe("sent");
    const [inA] = await waitFor(async () => {
      const list = await emailsOf(a.id);
      return list.length > 0 ? list : undefined;
    });
    const email = await t.call<{ subject: string; headers: Record<string, string> }>("GET", `/emails/${inA!.id}`, { actor: owner });
    expect(email.body.subject).toBe("Re: Ping");
    const headers = Object.fromEntries(Object.entries(email.body.headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers["in-reply-to"]).toBe(sent.body.message_id);
    expect(headers["references"]).toBe(sent.body.message_id);
    expect(relay.received.some((r) => r.to.includes(a.full_address) || r.to.includes(b.full_address))).toBe(false);
  });

  it("when a received message is released, then the relay gets its bytes unchanged under the Resent-* block", async () => {
    const a = await createInbox();
    const b = await createInbox();
    const sent = await send(a.id, { to: [b.full_address], subject: "Keep me", text: "exact bytes" });
    await settled(a.id, sent.body.outbound_id);
    const [inB] = await waitFor(async () => {
      const list = await emailsOf(b.id);
      return list.length > 0 ? list : undefined;
    });
    const scope = { orgId, teamId: teams.main };
    const file = await t.service.deps.data.repos.emails.rawMessage(scope, inB!.id);
    const original = await t.service.deps.storage.get(file!.key);
    const released = await t.call<{ outbound_id: string; message_id: string }>("POST", `/emails/${inB!.id}/release`, {
      actor: owner,
      body: { to: ["release@partner.example"] },
    });
    expect(released.status).toBe(202);
    expect((await settled(b.id, released.body.outbound_id)).kind).toBe("release");
    const got = relay.received.find((r) => r.to.includes("release@partner.example"));
    // the domain's DKIM-Signature on top, then the Resent-* block, then the original byte for byte
    const { rest } = splitSignature(got!.raw);
    const text = rest.toString("utf8");
    const block = text.slice(0, text.indexOf("\r\n", text.indexOf("Resent-Message-ID:")) + 2);
    expect(block).toMatch(
      new RegExp(
        `^Resent-From: ${b.full_address}\r\nResent-To: release@partner.example\r\nResent-Date: [^\r]+\r\nResent-Message-ID: ${released.body.message_id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\r\n$`,
      ),
    );
    expect(rest.subarray(Buffer.byteLength(block)).equals(original)).toBe(true);
  });

  it("when the relay answers 4xx, then the message is retried after spec 6.3's delay; a 5xx ends it as failed with the reply", async () => {
    const inbox = await createInbox();
    relay.mode = "defer";
    const res = await send(inbox.id, { to: ["later@partner.example"], subject: "retry me", text: "x" });
    const first = await waitFor(async () => {
      const m = (await outbound(inbox.id)).find((o) => o.id === res.body.outbound_id);
      return m && m.attempts === 1 && m.last_reply ? m : undefined;
    });
    expect(first).toMatchObject({ status: "queued" });
    expect(first.last_reply).toMatch(/^451/);
    relay.mode = "reject";
    offset += 5_000;
    await t.service.outbound.runNow();
    const ended = await settled(inbox.id, res.body.outbound_id);
    expect(ended).toMatchObject({ status: "failed", attempts: 2 });
    expect(ended.last_reply).toMatch(/^550/);
    relay.mode = "ok";
  });

  it("when a team has queued outbound.max_per_hour messages in the hour, then the next is 429 with Retry-After", async () => {
    const inbox = await createInbox(assignments.limited);
    for (let i = 0; i < 10; i++)
      expect((await send(inbox.id, { to: ["rate@partner.example"], subject: `n${i}`, text: "x" })).status).toBe(202);
    const refused = await send(inbox.id, { to: ["rate@partner.example"], subject: "n10", text: "x" });
    expect(refused.status).toBe(429);
    expect(refused.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
  });

  it("when the sender dies between the relay's 250 and the row's update, then another worker never sends it again", async () => {
    const inbox = await createInbox();
    const res = await send(inbox.id, { to: ["crash@partner.example"], subject: "once only", text: "x" });
    expect(res.status).toBe(202);
    // the relay took it (250) and the worker is stopped before it records that
    await waitFor(async () => (relay.received.some((r) => r.to.includes("crash@partner.example")) ? true : undefined));
    // a worker of another replica, once the dead one's lease has lapsed
    offset += 10 * 60_000;
    await deliverOutbound(t.service.deps, {
      sender: smtpSender,
      intake: intakeTarget,
      relay: async () => ({ code: null, reply: "unused" }),
      logger: t.infra.logger,
    });
    const entry = (await outbound(inbox.id)).find((o) => o.id === res.body.outbound_id);
    expect(entry).toMatchObject({ status: "failed" });
    expect(entry?.last_reply).toMatch(/outcome unknown/);
    // the dead worker comes back to life: its late update is fenced off, and still one delivery
    releaseCrashed();
    await t.service.outbound.runNow();
    expect((await outbound(inbox.id)).find((o) => o.id === res.body.outbound_id)?.status).toBe("failed");
    expect(relay.received.filter((r) => r.to.includes("crash@partner.example"))).toHaveLength(1);
  });
});
