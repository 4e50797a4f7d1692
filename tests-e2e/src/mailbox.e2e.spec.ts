import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { ImapFlow, type FetchMessageObject, type ImapTransport, type MessageStructureObject } from "imapflow";
import Pop3Command from "node-pop3";
import { apiClient, SmtpSession } from "./clients";
import { SharedSystem, SMTP_TLS_FIXTURES } from "./shared-system";
import { createInbox, roomInWindow, teamWithDomain } from "./world";

const CRLF = "\r\n";
const FETCHMAIL = "/usr/bin/fetchmail";
/** The certificate the mailbox offers with STARTTLS/STLS in the shared system (the intake's test certificate). */
const TEST_CERT = path.join(SMTP_TLS_FIXTURES, "smtp-test.crt");

/**
 * A loopback address of its own for each client that may be refused: failed logins are counted
 * per client address (extensions section 11), so one test's refusals never limit another's logins.
 */
let nextHost = 1;
function ownLoopback(): string {
  const n = nextHost++;
  return `127.${43 + (process.pid % 100)}.${Math.floor(n / 250)}.${(n % 250) + 2}`;
}

/** A multipart message as a mail client sends one: a text and an HTML part and a small attachment. */
function multipart(o: { from: string; to: string; subject: string; text: string }): string {
  const boundary = `b-${randomBytes(6).toString("hex")}`;
  return [
    `From: Sender <${o.from}>`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.text,
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    `<p>${o.text}</p>`,
    `--${boundary}`,
    'Content-Type: application/octet-stream; name="notes.bin"',
    'Content-Disposition: attachment; filename="notes.bin"',
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from("0123456789").toString("base64"),
    `--${boundary}--`,
  ].join(CRLF);
}

/**
 * IMAP and POP3 (extensions section 11) through the mailbox entrypoint's public ports, read with
 * real clients: imapflow, node-pop3 and Debian's fetchmail. The bytes they get are compared with
 * the API's `GET /emails/:id/raw`, and what they change (\Seen, EXPUNGE, DELE) with the API's view.
 */
describe("IMAP and POP3 for mail clients", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let viewKey = "";
  let manageKey = "";
  let inboxesOnlyKey = "";
  let otherTeamKey = "";
  let address = "";
  let inboxId = "";
  const tag = randomBytes(3).toString("hex");

  const createKey = async (w: typeof world, scopes: string[]) => {
    const res = await api<{ raw_key: string }>("POST", `/orgs/${w.orgId}/teams/${w.teamId}/api-keys`, {
      token: w.owner.token,
      body: { name: "mail client", scopes },
    });
    if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.raw_key;
  };

  /** Sends a message over SMTP; resolves with the moment the intake's 250 arrived. */
  async function deliver(to: string, subject: string, text = `body of ${subject}`): Promise<number> {
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<sender@shop.example>")).code).toBe(250);
      expect((await s.command(`RCPT TO:<${to}>`)).code).toBe(250);
      expect((await s.data(multipart({ from: "sender@shop.example", to, subject, text }))).code).toBe(250);
      return Date.now();
    } finally {
      await s.quit();
    }
  }

  type Listed = { id: string; subject: string; is_read: boolean };
  const listed = async (id = inboxId): Promise<Listed[]> => {
    const res = await api<{ data: Listed[] }>("GET", `/inboxes/${id}/emails?limit=100`, { token: world.owner.token });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const raw = async (emailId: string): Promise<Buffer> => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/emails/${emailId}/raw`, { headers: { authorization: `Bearer ${viewKey}` } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const emailIdBySubject = async (subject: string, id = inboxId): Promise<string> => {
    const hit = (await listed(id)).find((e) => e.subject === subject);
    if (!hit) throw new Error(`no email "${subject}"`);
    return hit.id;
  };

  /** An imapflow client from a loopback address of its own (`host`), not yet connected. */
  const imapClient = (user: string, pass: string, host = "127.0.0.1") => {
    // net and tls as imapflow's own transport uses them, from the given source address
    const transport: ImapTransport = {
      connect: (_opts, onConnect) => net.connect({ host: "127.0.0.1", port: system.ports.imap, localAddress: host }, onConnect),
      upgrade: (socket, opts, onSecure) => tls.connect({ ...opts.tls, socket, servername: "localhost" }, onSecure),
    };
    return new ImapFlow({
      host: "127.0.0.1",
      port: system.ports.imap,
      secure: false,
      // the server offers STARTTLS: imapflow takes it, trusting the system's test certificate
      tls: { ca: readFileSync(TEST_CERT) },
      auth: { user, pass },
      logger: false,
      disableAutoIdle: true,
      transport,
    });
  };

  const pop3Client = (user: string, password: string) => new Pop3Command({ host: "127.0.0.1", port: system.ports.pop3, user, password });

  /** The PASS answer of a POP3 session from `from` (a raw session: node-pop3 cannot pick its source address). */
  const popAnswer = (user: string, pass: string, from: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: "127.0.0.1", port: system.ports.pop3, localAddress: from });
      let buf = "";
      let step = 0;
      socket.on("error", reject);
      socket.on("data", (c: Buffer) => {
        buf += c.toString("latin1");
        while (buf.includes(CRLF)) {
          const line = buf.slice(0, buf.indexOf(CRLF));
          buf = buf.slice(buf.indexOf(CRLF) + 2);
          if (step === 0) socket.write(`USER ${user}${CRLF}`);
          else if (step === 1) socket.write(`PASS ${pass}${CRLF}`);
          else {
            socket.end(`QUIT${CRLF}`);
            resolve(line.startsWith("+OK") ? "logged in" : line);
            return;
          }
          step++;
        }
      });
    });

  beforeAll(async () => {
    world = await teamWithDomain(api, `mbx-${tag}`);
    const other = await teamWithDomain(api, `mbx-other-${tag}`);
    [viewKey, manageKey, inboxesOnlyKey, otherTeamKey] = await Promise.all([
      createKey(world, ["team.emails.view"]),
      createKey(world, ["team.emails.view", "team.emails.manage"]),
      createKey(world, ["team.inboxes.view"]),
      createKey(other, ["team.emails.view", "team.emails.manage"]),
    ]);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `reader-${tag}`);
    address = inbox.full_address;
    inboxId = inbox.id;
    await deliver(address, "First letter");
    await deliver(address, "Second letter", "the quick brown fox");
    await waitFor(async () => (await listed()).length === 2, { timeoutMs: 10_000, what: "both letters stored" });
  });

  describe("IMAP with imapflow", () => {
    it("when a key of the inbox's team logs in, then INBOX holds the mail and FETCH serves the stored bytes exactly", async () => {
      const client = imapClient(address, viewKey);
      await client.connect();
      try {
        const box = await client.mailboxOpen("INBOX");
        expect(box.exists).toBe(2);
        expect(Number(box.uidValidity)).toBeGreaterThan(0);
        const messages: FetchMessageObject[] = [];
        for await (const m of client.fetch("1:*", {
          uid: true,
          envelope: true,
          bodyStructure: true,
          source: true,
          size: true,
          flags: true,
        }))
          messages.push(m);
        expect(messages.map((m) => m.envelope?.subject)).toEqual(["First letter", "Second letter"]);
        for (const m of messages) {
          const bytes = await raw(await emailIdBySubject(m.envelope?.subject ?? ""));
          expect(m.source?.equals(bytes)).toBe(true);
          expect(m.size).toBe(bytes.length);
          expect(m.envelope?.from?.[0]).toMatchObject({ name: "Sender", address: "sender@shop.example" });
          expect(m.envelope?.to?.[0]?.address).toBe(address);
          expect(m.flags?.has("\\Seen")).toBe(false);
          const structure = m.bodyStructure as MessageStructureObject;
          expect(structure.type).toBe("multipart/mixed");
          expect(structure.childNodes?.map((p) => p.type)).toEqual(["text/plain", "text/html", "application/octet-stream"]);
          expect(structure.childNodes?.[2]).toMatchObject({ disposition: "attachment", encoding: "base64" });
        }
        // one part by its section number, decoded by the client as it would show it
        const part = await client.download(String(messages[1]?.uid), "1", { uid: true });
        const chunks: Buffer[] = [];
        for await (const c of part.content ?? []) chunks.push(c as Buffer);
        expect(Buffer.concat(chunks).toString("utf8")).toBe("the quick brown fox");
      } finally {
        await client.logout();
      }
    });

    it("when two sessions look, then the UIDs are the same and increase with arrival", async () => {
      const uidsOf = async () => {
        const client = imapClient(address, viewKey);
        await client.connect();
        try {
          const box = await client.mailboxOpen("INBOX", { readOnly: true });
          const uids = await client.search({ all: true }, { uid: true });
          return { uids, validity: box.uidValidity, next: box.uidNext };
        } finally {
          await client.logout();
        }
      };
      const first = await uidsOf();
      const second = await uidsOf();
      expect(second).toEqual(first);
      expect(first.uids).toHaveLength(2);
      expect((first.uids as number[])[0]).toBeLessThan((first.uids as number[])[1] as number);
      expect(first.next).toBeGreaterThan((first.uids as number[])[1] as number);
    });

    it("when the client searches, then FROM, SUBJECT, BODY, SEEN/UNSEEN, SINCE and UID find the right messages", async () => {
      const client = imapClient(address, viewKey);
      await client.connect();
      try {
        await client.mailboxOpen("INBOX");
        const all = (await client.search({ all: true }, { uid: true })) as number[];
        expect(await client.search({ subject: "second" })).toEqual([2]);
        expect(await client.search({ body: "quick brown" })).toEqual([2]);
        expect(await client.search({ from: "shop.example" })).toEqual([1, 2]);
        expect(await client.search({ to: "nobody@else.example" })).toEqual([]);
        expect(await client.search({ seen: false })).toEqual([1, 2]);
        expect(await client.search({ seen: true })).toEqual([]);
        expect(await client.search({ since: new Date(Date.now() - 86_400_000) })).toEqual([1, 2]);
        expect(await client.search({ before: new Date(Date.now() - 86_400_000) })).toEqual([]);
        expect(await client.search({ uid: String(all[1]) }, { uid: true })).toEqual([all[1]]);
      } finally {
        await client.logout();
      }
    });

    it("when \\Seen is stored with a managing key, then the API's is_read follows, both ways", async () => {
      const id = await emailIdBySubject("First letter");
      const client = imapClient(address, manageKey);
      await client.connect();
      try {
        await client.mailboxOpen("INBOX");
        expect(await client.messageFlagsAdd("1", ["\\Seen"])).toBe(true);
        await waitFor(async () => (await listed()).find((e) => e.id === id)?.is_read === true, { timeoutMs: 5_000, what: "is_read" });
        expect(await client.search({ seen: true })).toEqual([1]);
        expect(await client.messageFlagsRemove("1", ["\\Seen"])).toBe(true);
        await waitFor(async () => (await listed()).find((e) => e.id === id)?.is_read === false, { timeoutMs: 5_000, what: "unread" });
      } finally {
        await client.logout();
      }
    });

    it("when a key without team.emails.manage stores or expunges, then the server answers NO and the mail stays", async () => {
      const client = imapClient(address, viewKey);
      await client.connect();
      try {
        const box = await client.mailboxOpen("INBOX");
        expect(box.readOnly).toBe(true);
        expect(await client.messageFlagsAdd("1", ["\\Deleted"])).toBe(false);
        expect(await client.messageDelete("1")).toBe(false);
      } finally {
        await client.logout();
      }
      expect(await listed()).toHaveLength(2);
    });

    it("when a managing key expunges a message, then the API no longer has it and the other UIDs stay", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `expunge-${tag}`);
      for (const s of ["keep me", "drop me", "keep me too"]) await deliver(inbox.full_address, s);
      await waitFor(async () => (await listed(inbox.id)).length === 3, { timeoutMs: 10_000, what: "three letters" });
      const dropId = await emailIdBySubject("drop me", inbox.id);
      const client = imapClient(inbox.full_address, manageKey);
      await client.connect();
      try {
        await client.mailboxOpen("INBOX");
        const before = (await client.search({ all: true }, { uid: true })) as number[];
        const expunged: number[] = [];
        client.on("expunge", (e: { seq: number }) => expunged.push(e.seq));
        expect(await client.messageDelete(String(before[1]), { uid: true })).toBe(true);
        expect(expunged).toEqual([2]);
        expect(await client.search({ all: true }, { uid: true })).toEqual([before[0], before[2]]);
      } finally {
        await client.logout();
      }
      expect((await api("GET", `/emails/${dropId}`, { token: world.owner.token })).status).toBe(404);
      expect((await listed(inbox.id)).map((e) => e.subject).sort()).toEqual(["keep me", "keep me too"]);
    });

    it("when a client IDLEs, then a new email is told as EXISTS within a second of its 250", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `idle-${tag}`);
      const client = imapClient(inbox.full_address, viewKey);
      await client.connect();
      try {
        await client.mailboxOpen("INBOX");
        const told: Array<{ count: number; at: number }> = [];
        client.on("exists", (e: { count: number }) => told.push({ count: e.count, at: Date.now() }));
        const idling = client.idle();
        // the IDLE command is out before the mail is sent: its continuation has been answered
        await waitFor(() => client.idling, { timeoutMs: 5_000, what: "IDLE to start" });
        const accepted = await deliver(inbox.full_address, "Wake up");
        await waitFor(() => told.length > 0, { timeoutMs: 2_000, intervalMs: 10, what: "* 1 EXISTS" });
        expect(told[0]?.count).toBe(1);
        expect((told[0]?.at ?? Infinity) - accepted).toBeLessThan(1_000);
        await client.noop();
        await idling;
      } finally {
        await client.logout();
      }
    });
  });

  describe("POP3 with node-pop3", () => {
    it("when a key of the inbox's team logs in, then STAT, LIST, UIDL, RETR and TOP serve the stored mail", async () => {
      const pop = pop3Client(address, viewKey);
      try {
        const bytes = [await raw(await emailIdBySubject("First letter")), await raw(await emailIdBySubject("Second letter"))];
        const [count, total] = (await pop.STAT()).split(" ").map(Number);
        expect(count).toBe(2);
        expect(total).toBe((bytes[0]?.length ?? 0) + (bytes[1]?.length ?? 0));
        expect(await pop.LIST()).toEqual([
          ["1", String(bytes[0]?.length)],
          ["2", String(bytes[1]?.length)],
        ]);
        const uidl = (await pop.UIDL()) as string[][];
        expect(uidl.map((u) => u[0])).toEqual(["1", "2"]);
        expect(new Set(uidl.map((u) => u[1])).size).toBe(2);
        // the unique ids are the same in the next session
        const again = pop3Client(address, viewKey);
        expect(await again.UIDL()).toEqual(uidl);
        await again.QUIT();
        // the library takes the multi-line answer's end, CRLF "." CRLF, off: the message's last CRLF with it
        const retr = await pop.RETR(2);
        expect(`${retr}${CRLF}`).toBe(bytes[1]?.toString("utf8"));
        const top = await pop.TOP(1, 0);
        const header = (bytes[0]?.toString("utf8") ?? "").split(`${CRLF}${CRLF}`)[0];
        expect(`${top}${CRLF}`).toBe(`${header}${CRLF}${CRLF}`);
      } finally {
        await pop.QUIT();
      }
    });

    it("when a key without team.emails.manage sends DELE, then -ERR, and with one, QUIT deletes the message", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `pop-dele-${tag}`);
      await deliver(inbox.full_address, "pop keep");
      await deliver(inbox.full_address, "pop drop");
      await waitFor(async () => (await listed(inbox.id)).length === 2, { timeoutMs: 10_000, what: "two letters" });
      const viewer = pop3Client(inbox.full_address, viewKey);
      await expect(viewer.DELE(1)).rejects.toThrow(/-?ERR|permission|may not/i);
      await viewer.QUIT().catch(() => undefined);
      expect(await listed(inbox.id)).toHaveLength(2);
      const manager = pop3Client(inbox.full_address, manageKey);
      const drop = await emailIdBySubject("pop drop", inbox.id);
      const list = (await manager.LIST()) as string[][];
      expect(list).toHaveLength(2);
      await manager.DELE(2);
      // RSET undoes, DELE again, QUIT commits (RFC 1939's UPDATE state)
      await manager.RSET();
      expect((await manager.STAT()).split(" ")[0]).toBe("2");
      await manager.DELE(2);
      expect((await manager.STAT()).split(" ")[0]).toBe("1");
      expect((await api("GET", `/emails/${drop}`, { token: world.owner.token })).status).toBe(200);
      await manager.QUIT();
      await waitFor(async () => (await api("GET", `/emails/${drop}`, { token: world.owner.token })).status === 404, {
        timeoutMs: 5_000,
        what: "the DELE'd email gone",
      });
      expect((await listed(inbox.id)).map((e) => e.subject)).toEqual(["pop keep"]);
    });
  });

  describe("fetchmail", () => {
    const runFetchmail = async (protocol: "IMAP" | "POP3", port: number, key: string): Promise<Buffer[]> => {
      const dir = mkdtempSync(path.join(tmpdir(), "bb-fetchmail-"));
      try {
        const out = path.join(dir, "mail");
        const rc = path.join(dir, "fetchmailrc");
        writeFileSync(
          rc,
          [
            `poll localhost via 127.0.0.1 service ${port} protocol ${protocol} auth password`,
            `  user "${address}" password "${key}" is "local"`,
            // STARTTLS/STLS with the system's test certificate, verified against it
            `  keep fetchall no rewrite sslproto "auto" sslcertck sslcertfile "${TEST_CERT}" sslcommonname "localhost"`,
            "",
          ].join("\n"),
        );
        // fetchmail refuses a run control file others may read
        chmodSync(rc, 0o600);
        mkdirSync(out);
        const args = [
          "-f",
          rc,
          "--nodetach",
          "--invisible",
          "--pidfile",
          path.join(dir, "pid"),
          "--idfile",
          path.join(dir, "ids"),
          "--mda",
          `/bin/sh -c 'cat > "$(mktemp ${out}/m.XXXXXX)"'`,
        ];
        const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(FETCHMAIL, args, { env: { PATH: process.env.PATH ?? "", HOME: dir } });
          let output = "";
          child.stdout.on("data", (c: Buffer) => (output += c.toString()));
          child.stderr.on("data", (c: Buffer) => (output += c.toString()));
          child.on("close", (c) => resolve({ code: c, output }));
        });
        if (code !== 0) throw new Error(`fetchmail exited with ${code}:\n${output}`);
        return readdirSync(out).map((f) => readFileSync(path.join(out, f)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };

    const fetched = (protocol: "IMAP" | "POP3") =>
      it(`when fetchmail polls the inbox over ${protocol}, then the mail delivered is the stored mail, line for line`, async () => {
        if (!existsSync(FETCHMAIL)) throw new Error(`${FETCHMAIL} is missing: apt-get install fetchmail`);
        // over IMAP fetchmail marks what it fetched \Seen (a STORE, refused to a key that may not manage emails)
        const got = await runFetchmail(
          protocol,
          protocol === "IMAP" ? system.ports.imap : system.ports.pop3,
          protocol === "IMAP" ? manageKey : viewKey,
        );
        const emails = await listed();
        const stored = await Promise.all(emails.map((e) => raw(e.id)));
        // an MDA gets the message with the local line ending (LF); fetchmail adds nothing under --invisible
        const asLocal = (b: Buffer) => b.toString("utf8").replace(/\r\n/g, "\n");
        expect(got).toHaveLength(2);
        expect(got.map(asLocal).sort()).toEqual(stored.map(asLocal).sort());
        if (protocol === "IMAP") expect(emails.map((e) => e.is_read)).toEqual([true, true]);
      });
    fetched("IMAP");
    fetched("POP3");
  });

  describe("refusals", () => {
    type Answer = { imap: string; pop3: string };
    const answerTo = async (user: string, pass: string, from: string): Promise<Answer> => {
      const client = imapClient(user, pass, from);
      const imap = await client.connect().then(
        async () => {
          await client.logout();
          return "logged in";
        },
        (err: { authenticationFailed?: boolean; serverResponseCode?: string; response?: string }) =>
          JSON.stringify([err.authenticationFailed, err.serverResponseCode, err.response]),
      );
      const pop3 = await popAnswer(user, pass, from);
      return { imap, pop3 };
    };
    it("when the key is wrong, another team's, or lacks team.emails.view, then IMAP and POP3 refuse each alike", async () => {
      const from = ownLoopback();
      const wrong = await answerTo(address, `bb_${randomBytes(32).toString("hex")}`, from);
      const foreign = await answerTo(address, otherTeamKey, from);
      const unscoped = await answerTo(address, inboxesOnlyKey, from);
      const unknownInbox = await answerTo(`nobody-${tag}@${world.domainName}`, viewKey, from);
      expect(JSON.parse(wrong.imap)).toEqual([true, "AUTHENTICATIONFAILED", expect.any(String)]);
      expect(wrong.pop3).toMatch(/^-ERR /);
      for (const answer of [foreign, unscoped, unknownInbox]) expect(answer).toEqual(wrong);
      // and the right key from the same address still logs in
      expect(await answerTo(address, viewKey, from)).toEqual({ imap: "logged in", pop3: "logged in" });
    });

    it("when one address fails too often, then it is refused even with the right key, and other addresses are not", async () => {
      await roomInWindow(60_000, 20_000);
      const from = ownLoopback();
      const wrongKey = `bb_${randomBytes(32).toString("hex")}`;
      // the limit (mailbox.login_failures_per_minute, 10), over both protocols
      await Promise.all(Array.from({ length: 5 }, () => popAnswer(address, wrongKey, from)));
      await Promise.all(Array.from({ length: 5 }, () => answerTo(address, wrongKey, from).then((a) => a.imap)));
      const limited = await answerTo(address, viewKey, from);
      expect(limited.imap).toContain("AUTHENTICATIONFAILED");
      expect(limited.pop3).toMatch(/^-ERR /);
      expect(await answerTo(address, viewKey, ownLoopback())).toEqual({ imap: "logged in", pop3: "logged in" });
    });
  });
  describe("metrics and shutdown", () => {
    const metricsText = async () => (await fetch(`http://127.0.0.1:${system.ports["inbox-mailbox"]}/metrics`)).text();
    const value = (text: string, series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };

    it("when clients log in and send commands, then the mailbox's /metrics counts sessions, commands and logins", async () => {
      const before = await metricsText();
      const series = {
        imapOk: 'burnbox_mailbox_logins_total{protocol="imap",outcome="ok",service="inbox-mailbox"}',
        pop3Refused: 'burnbox_mailbox_logins_total{protocol="pop3",outcome="refused",service="inbox-mailbox"}',
        select: 'burnbox_mailbox_commands_total{protocol="imap",command="SELECT",outcome="ok",service="inbox-mailbox"}',
        open: 'burnbox_mailbox_sessions_open{protocol="imap",service="inbox-mailbox"}',
      };
      const client = imapClient(address, viewKey);
      await client.connect();
      await client.mailboxOpen("INBOX");
      const during = await metricsText();
      await client.logout();
      await popAnswer(address, "not-a-key", ownLoopback());
      const after = await metricsText();
      expect(value(after, series.imapOk) - value(before, series.imapOk)).toBe(1);
      expect(value(after, series.select) - value(before, series.select)).toBe(1);
      expect(value(after, series.pop3Refused) - value(before, series.pop3Refused)).toBe(1);
      expect(value(during, series.open)).toBeGreaterThanOrEqual(1);
    });

    it("when the mailbox process is stopped, then an IDLE session is told * BYE before its connection closes", async () => {
      // a bare session in the clear (LOGIN without STARTTLS is allowed: the key is the secret either way)
      let text = "";
      let closed = false;
      const plain = net.connect(system.ports.imap, "127.0.0.1");
      plain.on("data", (c: Buffer) => (text += c.toString("latin1")));
      plain.on("close", () => (closed = true));
      await waitFor(() => text.includes("* OK"), { timeoutMs: 5_000, what: "the greeting" });
      plain.write(`a1 LOGIN "${address}" "${viewKey}"\r\na2 SELECT INBOX\r\na3 IDLE\r\n`);
      await waitFor(() => text.includes("+ idling"), { timeoutMs: 5_000, what: "IDLE to start" });
      try {
        await system.stopProcess("inbox-mailbox");
        await waitFor(() => closed, { timeoutMs: 10_000, what: "the connection to close" });
        expect(text).toMatch(/\+ idling\r\n\* BYE [^\r\n]*\r\n$/);
      } finally {
        await system.startProcess("inbox-mailbox");
      }
      // and the restarted process serves again
      const client = imapClient(address, viewKey);
      await client.connect();
      expect((await client.mailboxOpen("INBOX")).exists).toBeGreaterThan(0);
      await client.logout();
    });
  });
});
