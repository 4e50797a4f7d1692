import net from "node:net";
import { createLogger, pipeline } from "@burnbox/service-kit/runtime";
import { TEST_INTERNAL_SECRET, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { loadInboxConfig } from "../config";
import type { MailboxBackend, MailboxMessage, MailboxSession } from "./backend";
import { startMailboxServers } from "./mailbox-servers";
import { frameCommand, parseSequenceSet, tokenize } from "./imap-syntax";
import { ImapSession } from "./imap-session";
import { parseMime, sectionBytes, bodyStructure, envelope } from "./mime";
import { dotStuff, Pop3Session, topOf } from "./pop3-session";

const RAW = Buffer.from(
  "Date: Wed, 17 Jul 1996 02:23:25 -0700 (PDT)\r\nFrom: Terry Gray <gray@cac.washington.edu>\r\nSubject: IMAP4rev1 WG mtg summary and minutes\r\n" +
    "To: imap@cac.washington.edu\r\nMessage-Id: <B27397-0100000@cac.washington.edu>\r\nContent-Type: text/plain; charset=US-ASCII\r\n\r\nHello Joe, do you think we can meet at 3:30 tomorrow?\r\n.hidden dot\r\n",
);

function fakeBackend(messages: MailboxMessage[], opts: { canManage: boolean }) {
  const removed: string[] = [];
  const seen: Array<[string, boolean]> = [];
  /** The ids storage was read for, one per read. */
  const reads: string[] = [];
  let wake: (() => void) | null = null;
  const session: MailboxSession = {
    inboxId: "i1",
    address: "a@x.test",
    uidValidity: 3857529045,
    canManage: opts.canManage,
    list: async () => messages.filter((m) => !removed.includes(m.id)),
    raw: async (id) => {
      reads.push(id);
      return RAW;
    },
    setSeen: async (id, s) => void seen.push([id, s]),
    remove: async (id) => void removed.push(id),
    onMail: (w) => {
      wake = w;
      return () => (wake = null);
    },
  };
  const backend: MailboxBackend = { login: async (u, p) => (u === "a@x.test" && p === "good" ? session : null) };
  return { backend, removed, seen, reads, wake: () => wake?.() };
}

function transport() {
  const out: string[] = [];
  let closed = false;
  return {
    io: {
      write: (d: string | Buffer) => void out.push(d.toString()),
      close: () => void (closed = true),
      encrypted: false,
      remoteAddress: "127.0.0.1",
    },
    text: () => out.join(""),
    clear: () => (out.length = 0),
    closed: () => closed,
  };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
};

const msg = (uid: number, seen = false): MailboxMessage => ({
  uid,
  id: `e${uid}`,
  size: RAW.length,
  receivedAt: new Date("2026-12-01T10:00:00Z"),
  seen,
});

describe("IMAP syntax (RFC 3501)", () => {
  it("frames a command with a synchronizing literal only once the literal has come", () => {
    const part = Buffer.from("A003 APPEND saved-messages (\\Seen) {5}\r\n");
    expect(frameCommand(part)).toEqual({ need: "more", literal: { size: 5, at: part.length } });
    const whole = Buffer.concat([part, Buffer.from("ab cd\r\n")]);
    expect(frameCommand(whole)).toEqual({ end: whole.length });
    expect(tokenize(whole).map((t) => (t.kind === "list" ? "()" : t.value))).toEqual(["A003", "APPEND", "saved-messages", "()", "ab cd"]);
  });

  it("reads quoted strings, lists and BODY sections with spaces", () => {
    const t = tokenize(Buffer.from('a FETCH 1:* (FLAGS BODY.PEEK[HEADER.FIELDS (FROM TO)]<0.10>) "q\\"s"\r\n'));
    expect(t[3]).toEqual({
      kind: "list",
      items: [
        { kind: "atom", value: "FLAGS" },
        { kind: "atom", value: "BODY.PEEK[HEADER.FIELDS (FROM TO)]<0.10>" },
      ],
    });
    expect(t[4]).toMatchObject({ kind: "string", value: 'q"s' });
  });

  it("parses sequence sets and refuses 0", () => {
    expect(parseSequenceSet("2,4:7,9,12:*")).toEqual([
      [2, 2],
      [4, 7],
      [9, 9],
      [12, Infinity],
    ]);
    expect(() => parseSequenceSet("0:3")).toThrow();
  });

  it("gives ENVELOPE, BODYSTRUCTURE and sections of a message", () => {
    const part = parseMime(RAW);
    expect(envelope(part)).toBe(
      '("Wed, 17 Jul 1996 02:23:25 -0700 (PDT)" "IMAP4rev1 WG mtg summary and minutes" (("Terry Gray" NIL "gray" "cac.washington.edu")) (("Terry Gray" NIL "gray" "cac.washington.edu")) (("Terry Gray" NIL "gray" "cac.washington.edu")) ((NIL NIL "imap" "cac.washington.edu")) NIL NIL NIL "<B27397-0100000@cac.washington.edu>")',
    );
    expect(bodyStructure(part, false)).toBe(`("text" "plain" ("charset" "US-ASCII") NIL NIL "7bit" ${part.body.length} 2)`);
    expect(sectionBytes(part, "HEADER.FIELDS (SUBJECT)").toString()).toBe("Subject: IMAP4rev1 WG mtg summary and minutes\r\n\r\n");
    expect(sectionBytes(part, "").equals(RAW)).toBe(true);
  });

  it("splits a multipart message into its parts", () => {
    const raw = Buffer.from(
      'Content-Type: multipart/mixed; boundary="b"\r\n\r\npre\r\n--b\r\nContent-Type: text/plain\r\n\r\none\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>two</p>\r\n--b--\r\n',
    );
    const part = parseMime(raw);
    expect(part.children.map((c) => c.subtype)).toEqual(["plain", "html"]);
    expect(sectionBytes(part, "2").toString()).toBe("<p>two</p>");
    expect(sectionBytes(part, "1.MIME").toString()).toBe("Content-Type: text/plain\r\n\r\n");
  });
});

describe("IMAP session", () => {
  it("logs in, selects, fetches byte-exact and searches as RFC 3501's examples", async () => {
    const { backend } = fakeBackend([msg(4), msg(9, true)], { canManage: false });
    const t = transport();
    const s = new ImapSession(backend, t.io, { hostname: "mx.test", tlsOffered: false });
    s.greet();
    s.push(Buffer.from("a001 LOGIN a@x.test bad\r\n"));
    await until(() => t.text().includes("a001 NO [AUTHENTICATIONFAILED]"));
    s.push(Buffer.from("a002 LOGIN {8}\r\n"));
    await until(() => t.text().includes("+ go ahead"));
    s.push(Buffer.from("a@x.test good\r\n"));
    await until(() => t.text().includes("a002 OK"));
    s.push(Buffer.from("a003 SELECT INBOX\r\n"));
    await until(() => t.text().includes("a003 OK [READ-ONLY]"));
    expect(t.text()).toContain("* 2 EXISTS\r\n");
    expect(t.text()).toContain("* OK [UIDVALIDITY 3857529045]");
    t.clear();
    s.push(Buffer.from("a004 UID FETCH 9 (FLAGS BODY[])\r\n"));
    await until(() => t.text().includes("a004 OK"));
    expect(t.text()).toBe(
      `* 2 FETCH (UID 9 FLAGS (\\Seen) BODY[] {${RAW.length}}\r\n${RAW.toString()})\r\na004 OK UID FETCH completed\r\n`,
    );
    t.clear();
    s.push(Buffer.from("a005 SEARCH UNSEEN FROM gray\r\na006 UID SEARCH SEEN\r\n"));
    await until(() => t.text().includes("a006 OK"));
    expect(t.text()).toContain("* SEARCH 1\r\na005 OK");
    expect(t.text()).toContain("* SEARCH 9\r\na006 OK");
    s.push(Buffer.from("a007 STORE 1 +FLAGS (\\Deleted)\r\n"));
    await until(() => t.text().includes("a007 NO"));
  });

  it("expunges with a managing key and tells IDLE of new mail", async () => {
    const messages = [msg(1), msg(2)];
    const fake = fakeBackend(messages, { canManage: true });
    const t = transport();
    const s = new ImapSession(fake.backend, t.io, { hostname: "mx.test", tlsOffered: false });
    s.push(
      Buffer.from(
        `a1 AUTHENTICATE PLAIN ${Buffer.from("\0a@x.test\0good").toString("base64")}\r\na2 SELECT INBOX\r\na3 STORE 1 +FLAGS.SILENT (\\Deleted)\r\na4 EXPUNGE\r\n`,
      ),
    );
    await until(() => t.text().includes("a4 OK"));
    expect(fake.removed).toEqual(["e1"]);
    expect(t.text()).toContain("* 1 EXPUNGE\r\na4 OK");
    s.push(Buffer.from("a5 IDLE\r\n"));
    await until(() => t.text().includes("+ idling"));
    messages.push(msg(7));
    fake.wake();
    await until(() => t.text().includes("* 2 EXISTS"));
    s.push(Buffer.from("DONE\r\n"));
    await until(() => t.text().includes("a5 OK IDLE terminated"));
  });
});

/** A POP3 session of `fake`'s mailbox given `script` at once, until it closes; its transport. */
async function pop3Run(fake: ReturnType<typeof fakeBackend>, script: string) {
  const t = transport();
  const s = new Pop3Session(fake.backend, t.io, { hostname: "mx.test", tlsOffered: false });
  s.greet();
  s.push(Buffer.from(script));
  await until(() => t.closed());
  return t;
}

describe("POP3 (RFC 1939)", () => {
  it("dot-stuffs and cuts TOP", () => {
    expect(dotStuff(Buffer.from("a\r\n.b\r\n")).toString()).toBe("a\r\n..b\r\n.\r\n");
    expect(topOf(Buffer.from("H: v\r\n\r\nl1\r\nl2\r\n"), 1).toString()).toBe("H: v\r\n\r\nl1\r\n");
  });

  it("runs the RFC's session: USER/PASS, STAT, LIST, UIDL, RETR, DELE, QUIT", async () => {
    const fake = fakeBackend([msg(1), msg(2)], { canManage: true });
    const text = (
      await pop3Run(fake, "USER a@x.test\r\nPASS good\r\nSTAT\r\nLIST\r\nUIDL 2\r\nRETR 1\r\nDELE 1\r\nLIST 1\r\nQUIT\r\n")
    ).text();
    expect(text).toContain("+OK maildrop has 2 messages\r\n");
    expect(text).toContain(`+OK 2 ${RAW.length * 2}\r\n`);
    expect(text).toContain(`+OK 2 messages\r\n1 ${RAW.length}\r\n2 ${RAW.length}\r\n.\r\n`);
    expect(text).toContain("+OK 2 e2\r\n");
    expect(text).toContain(`+OK ${RAW.length} octets\r\n${RAW.toString().replace("\n.hidden", "\n..hidden")}.\r\n`);
    expect(text).toContain("-ERR no such message\r\n");
    expect(fake.removed).toEqual(["e1"]);
  });

  it("reads a message from storage once in a session, however often TOP and RETR ask for it", async () => {
    const fake = fakeBackend([msg(1), msg(2)], { canManage: false });
    const t = await pop3Run(fake, "USER a@x.test\r\nPASS good\r\nTOP 1 0\r\nRETR 1\r\nRETR 1\r\nRETR 2\r\nQUIT\r\n");
    expect(t.text().split(`+OK ${RAW.length} octets\r\n`)).toHaveLength(4);
    expect(fake.reads).toEqual(["e1", "e2"]);
  });

  it("refuses DELE without the manage permission and a wrong password alike", async () => {
    const fake = fakeBackend([msg(1)], { canManage: false });
    const t = transport();
    const s = new Pop3Session(fake.backend, t.io, { hostname: "mx.test", tlsOffered: false });
    s.push(
      Buffer.from(`USER a@x.test\r\nPASS nope\r\nAUTH PLAIN ${Buffer.from("\0a@x.test\0good").toString("base64")}\r\nDELE 1\r\nQUIT\r\n`),
    );
    await until(() => t.closed());
    expect(t.text()).toContain("-ERR [AUTH] invalid credentials\r\n");
    expect(t.text()).toContain("-ERR [AUTH] this key may not delete emails");
    expect(fake.removed).toEqual([]);
  });
});

/** A counter's or gauge's value for the labels (0 before the first increment). */
async function metric(
  m: { get(): Promise<{ values: Array<{ value: number; labels: Record<string, unknown> }> }> },
  labels: Record<string, string>,
) {
  const { values } = await m.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
}

describe("the mailbox's metrics", () => {
  it("counts IMAP commands by name and answer (ok, no, bad), an unknown command as other", async () => {
    const count = (command: string, outcome: string) => metric(pipeline.mailboxCommands, { protocol: "imap", command, outcome });
    const before = await Promise.all([count("LOGIN", "no"), count("LOGIN", "ok"), count("UID FETCH", "ok"), count("other", "bad")]);
    const { backend } = fakeBackend([msg(1)], { canManage: false });
    const t = transport();
    const s = new ImapSession(backend, t.io, { hostname: "mx.test", tlsOffered: false });
    s.push(Buffer.from("a1 LOGIN a@x.test bad\r\na2 LOGIN a@x.test good\r\na3 SELECT INBOX\r\na4 UID FETCH 1 FLAGS\r\na5 XYZZY\r\n"));
    await until(() => t.text().includes("a5 BAD"));
    const after = await Promise.all([count("LOGIN", "no"), count("LOGIN", "ok"), count("UID FETCH", "ok"), count("other", "bad")]);
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual([1, 1, 1, 1]);
  });

  it("counts POP3 commands by name and answer (-ERR is no)", async () => {
    const count = (command: string, outcome: string) => metric(pipeline.mailboxCommands, { protocol: "pop3", command, outcome });
    const before = await Promise.all([count("PASS", "no"), count("PASS", "ok"), count("RETR", "ok"), count("DELE", "no")]);
    const fake = fakeBackend([msg(1)], { canManage: false });
    const t = transport();
    const s = new Pop3Session(fake.backend, t.io, { hostname: "mx.test", tlsOffered: false });
    s.push(Buffer.from("USER a@x.test\r\nPASS nope\r\nUSER a@x.test\r\nPASS good\r\nRETR 1\r\nDELE 1\r\nQUIT\r\n"));
    await until(() => t.closed());
    const after = await Promise.all([count("PASS", "no"), count("PASS", "ok"), count("RETR", "ok"), count("DELE", "no")]);
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual([1, 1, 1, 1]);
  });
});

describe("the listeners' shutdown", () => {
  const config = loadInboxConfig({
    NODE_ENV: "test",
    BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    BB_AUTH_JWT_SECRET: TEST_JWT_SECRET,
    BB_IMAP_HOST: "127.0.0.1",
    BB_IMAP_PORT: "0",
    BB_POP3_HOST: "127.0.0.1",
    BB_POP3_PORT: "0",
  });
  const logger = createLogger({ service: "inbox-mailbox", level: "silent" });

  /** A raw client: what the server said so far, and whether it closed the connection. */
  const client = async (port: number) => {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    const got = { text: "", closed: false };
    socket.on("data", (c: Buffer) => (got.text += c.toString("latin1")));
    socket.on("close", () => (got.closed = true));
    return { socket, got, send: (line: string) => socket.write(`${line}\r\n`) };
  };
  const settled = async (cond: () => boolean | Promise<boolean>) => {
    let ok = await cond();
    for (let i = 0; i < 500 && !ok; i++) {
      await new Promise((r) => setTimeout(r, 5));
      ok = await cond();
    }
    expect(ok).toBe(true);
  };
  const open = (protocol: string) => metric(pipeline.mailboxSessions, { protocol });

  it("answers commands on a kept session without waiting for the client's ACK (no Nagle delay)", async () => {
    const fake = fakeBackend([msg(1)], { canManage: false });
    const servers = await startMailboxServers(config, { imap: fake.backend, pop3: fake.backend }, logger);
    const before = await open("imap");
    try {
      const imap = await client(servers.imapPort);
      imap.socket.setNoDelay(true);
      imap.send("a1 LOGIN a@x.test good");
      imap.send("a2 SELECT INBOX");
      await settled(() => imap.got.text.includes("a2 OK"));
      // each FETCH's answer is written in parts: held back by Nagle, 20 of them would take 800 ms
      // (Linux's 40 ms delayed ACK each); answered at once, a few
      const started = performance.now();
      for (let i = 0; i < 20; i++) {
        imap.send(`f${i} UID FETCH 1 BODY.PEEK[]`);
        await settled(() => imap.got.text.includes(`f${i} OK`));
      }
      expect(performance.now() - started).toBeLessThan(400);
      imap.socket.destroy();
      // the server's side has closed too (the next test counts sessions)
      await settled(async () => (await open("imap")) === before);
    } finally {
      await servers.close();
    }
  });

  it("tells an IDLE session * BYE and a POP3 session -ERR before closing, and counts the sessions", async () => {
    const fake = fakeBackend([msg(1)], { canManage: false });
    const servers = await startMailboxServers(config, { imap: fake.backend, pop3: fake.backend }, logger);
    const before = await Promise.all([open("imap"), open("pop3")]);
    const imap = await client(servers.imapPort);
    const pop3 = await client(servers.pop3Port);
    imap.send("a1 LOGIN a@x.test good");
    imap.send("a2 SELECT INBOX");
    imap.send("a3 IDLE");
    pop3.send("USER a@x.test");
    pop3.send("PASS good");
    await settled(() => imap.got.text.includes("+ idling") && pop3.got.text.includes("+OK maildrop"));
    try {
      expect(await Promise.all([open("imap"), open("pop3")])).toEqual([(before[0] ?? 0) + 1, (before[1] ?? 0) + 1]);
    } finally {
      await servers.close();
    }
    await settled(() => imap.got.closed && pop3.got.closed);
    expect(imap.got.text).toMatch(/\+ idling\r\n\* BYE server shutting down\r\n$/);
    expect(pop3.got.text).toMatch(/-ERR server shutting down\r\n$/);
    // the server's side of each connection closes too, and the gauge goes back
    let now: number[] = [];
    for (let i = 0; i < 200 && JSON.stringify(now) !== JSON.stringify(before); i++) {
      now = await Promise.all([open("imap"), open("pop3")]);
      if (JSON.stringify(now) !== JSON.stringify(before)) await new Promise((r) => setTimeout(r, 5));
    }
    expect(now).toEqual(before);
  });
});
