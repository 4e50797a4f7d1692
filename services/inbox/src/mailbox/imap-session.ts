import { pipeline } from "@burnbox/service-kit/runtime";
import type { MailboxBackend, MailboxMessage, MailboxSession } from "./backend";
import {
  astring,
  atom,
  frameCommand,
  imapDateTime,
  ImapSyntaxError,
  inSequenceSet,
  parseImapDate,
  parseSequenceSet,
  tokenize,
  type SeqRange,
  type Token,
} from "./imap-syntax";
import { bodyStructure, envelope, headerValue, parseMime, sectionBytes, type MimePart } from "./mime";
import { SessionCache } from "./session-cache";

/** The transport a session writes to: a socket, or a test's collector. */
export interface ImapTransport {
  write(data: string | Buffer): void;
  close(): void;
  /** Upgrades to TLS (STARTTLS); absent when no certificate is configured. */
  startTls?: (() => Promise<void>) | undefined;
  readonly encrypted: boolean;
  readonly remoteAddress: string;
}

interface Held extends MailboxMessage {
  deleted: boolean;
}

class No extends Error {}

const BASE_CAPS = ["IMAP4rev1", "LITERAL+", "IDLE", "UIDPLUS", "ENABLE"];

/** The commands the metrics name (`burnbox_mailbox_commands_total`); any other is counted as `other`. */
const KNOWN_COMMANDS = new Set(
  [
    "CAPABILITY NOOP CHECK LOGOUT ENABLE STARTTLS LOGIN AUTHENTICATE LIST LSUB SUBSCRIBE UNSUBSCRIBE CREATE DELETE RENAME APPEND COPY",
    "SELECT EXAMINE STATUS CLOSE UNSELECT EXPUNGE FETCH STORE SEARCH IDLE",
  ]
    .join(" ")
    .split(" "),
);

/**
 * One IMAP4rev1 connection (RFC 3501), fed bytes by `push`. States: not authenticated,
 * authenticated, selected, logout. The inbox is the one mailbox, `INBOX`. `\Deleted` is kept for
 * the session (EXPUNGE then deletes the email); `\Seen` is the email's read flag.
 */
export class ImapSession {
  private buf: Buffer = Buffer.alloc(0);
  private busy = false;
  private mailbox: MailboxSession | null = null;
  private selected: { readOnly: boolean; messages: Held[] } | null = null;
  private idle: { tag: string; unsubscribe: () => void } | null = null;
  private ended = false;
  private pendingLiteralAt = -1;
  private readonly cache = new SessionCache<MimePart>();
  private readonly recent = new Set<number>();

  constructor(
    private readonly backend: MailboxBackend,
    private readonly io: ImapTransport,
    private readonly opts: { hostname: string; tlsOffered: boolean; onIdle?: (s: ImapSession, on: boolean) => void },
  ) {}

  greet(): void {
    this.io.write(`* OK [CAPABILITY ${this.capabilities().join(" ")}] ${this.opts.hostname} BurnBox IMAP4rev1 ready\r\n`);
  }

  get isIdle(): boolean {
    return this.idle !== null;
  }

  /** Shutdown: `* BYE` and close. */
  bye(text = "server shutting down"): void {
    if (this.ended) return;
    this.ended = true;
    this.idle?.unsubscribe();
    this.io.write(`* BYE ${text}\r\n`);
    this.io.close();
  }

  end(): void {
    this.ended = true;
    this.idle?.unsubscribe();
    this.idle = null;
  }

  private capabilities(): string[] {
    const caps = [...BASE_CAPS];
    if (!this.mailbox) {
      if (this.opts.tlsOffered && !this.io.encrypted) caps.push("STARTTLS");
      caps.push("AUTH=PLAIN");
    }
    return caps;
  }

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.waiting) this.waiting();
    else void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.ended) {
        if (this.idle) {
          const lf = this.buf.indexOf(0x0a);
          if (lf < 0) break;
          const line = this.buf.subarray(0, lf).toString("latin1").trim();
          this.buf = this.buf.subarray(lf + 1);
          if (line.toUpperCase() === "DONE") {
            const { tag, unsubscribe } = this.idle;
            unsubscribe();
            this.idle = null;
            this.opts.onIdle?.(this, false);
            this.io.write(`${tag} OK IDLE terminated\r\n`);
          } else this.io.write(`* BAD expected DONE\r\n`);
          continue;
        }
        let framed;
        try {
          framed = frameCommand(this.buf);
        } catch (err) {
          this.io.write(`* BAD ${(err as Error).message}\r\n`);
          this.buf = Buffer.alloc(0);
          break;
        }
        if ("need" in framed) {
          if (framed.literal && framed.literal.at !== this.pendingLiteralAt) {
            this.pendingLiteralAt = framed.literal.at;
            this.io.write("+ go ahead\r\n");
          }
          if (this.buf.length > 1024 * 1024 + 8192) {
            this.io.write("* BYE command too long\r\n");
            this.io.close();
            this.ended = true;
          }
          break;
        }
        this.pendingLiteralAt = -1;
        const cmd = this.buf.subarray(0, framed.end);
        this.buf = this.buf.subarray(framed.end);
        await this.run(cmd);
      }
    } finally {
      this.busy = false;
    }
  }

  private async run(cmd: Buffer): Promise<void> {
    let tag = "*";
    let counted = "other";
    let outcome: "ok" | "no" | "bad" = "ok";
    try {
      const tokens = tokenize(cmd);
      const [t0, t1, ...args] = tokens;
      tag = atom(t0);
      if (!/^[\x21-\x7e]+$/.test(tag) || tag.includes("+")) throw new ImapSyntaxError("bad tag");
      let name = atom(t1).toUpperCase();
      let uid = false;
      if (name === "UID") {
        uid = true;
        name = atom(args.shift()).toUpperCase();
        if (!["FETCH", "SEARCH", "STORE", "EXPUNGE"].includes(name)) throw new ImapSyntaxError("unknown UID command");
      }
      if (KNOWN_COMMANDS.has(name)) counted = uid ? `UID ${name}` : name;
      await this.command(tag, name, args, uid);
    } catch (err) {
      outcome = err instanceof ImapSyntaxError ? "bad" : "no";
      if (err instanceof ImapSyntaxError) this.io.write(`${tag} BAD ${err.message}\r\n`);
      else if (err instanceof No) this.io.write(`${tag} NO ${err.message}\r\n`);
      else {
        this.io.write(`${tag} NO [SERVERBUG] temporary failure, try again\r\n`);
      }
    }
    pipeline.mailboxCommands.inc({ protocol: "imap", command: counted, outcome });
  }

  private requireAuth(): MailboxSession {
    if (!this.mailbox) throw new ImapSyntaxError("log in first");
    return this.mailbox;
  }

  private requireSelected(): { readOnly: boolean; messages: Held[] } {
    this.requireAuth();
    if (!this.selected) throw new ImapSyntaxError("select a mailbox first");
    return this.selected;
  }

  private async command(tag: string, name: string, args: Token[], uid: boolean): Promise<void> {
    const ok = (text: string) => this.io.write(`${tag} OK ${text}\r\n`);
    switch (name) {
      case "CAPABILITY":
        this.io.write(`* CAPABILITY ${this.capabilities().join(" ")}\r\n`);
        return ok("CAPABILITY completed");
      case "NOOP":
      case "CHECK":
        if (this.selected) await this.refresh(true);
        return ok(`${name} completed`);
      case "LOGOUT":
        this.io.write("* BYE logging out\r\n");
        ok("LOGOUT completed");
        this.end();
        this.io.close();
        return;
      case "ENABLE":
        this.requireAuth();
        this.io.write("* ENABLED\r\n");
        return ok("ENABLE completed");
      case "STARTTLS":
        if (this.mailbox || this.io.encrypted || !this.io.startTls || !this.opts.tlsOffered)
          throw new ImapSyntaxError("STARTTLS not available");
        if (this.buf.length) throw new ImapSyntaxError("no command may follow STARTTLS before the handshake");
        ok("begin TLS negotiation now");
        await this.io.startTls();
        return;
      case "LOGIN": {
        if (this.mailbox) throw new ImapSyntaxError("already logged in");
        if (args.length !== 2) throw new ImapSyntaxError("LOGIN needs a user and a password");
        return this.login(tag, astring(args[0]), astring(args[1]));
      }
      case "AUTHENTICATE": {
        if (this.mailbox) throw new ImapSyntaxError("already logged in");
        if (atom(args[0]).toUpperCase() !== "PLAIN") throw new No("[CANNOT] only PLAIN is offered");
        let response = args[1] ? astring(args[1]) : null;
        if (response === null) response = await this.continuation();
        if (response === "*") throw new ImapSyntaxError("AUTHENTICATE cancelled");
        const plain = decodePlain(response);
        if (!plain) throw new ImapSyntaxError("bad PLAIN response");
        return this.login(tag, plain.user, plain.password);
      }
      case "LIST":
      case "LSUB": {
        this.requireAuth();
        if (args.length !== 2) throw new ImapSyntaxError(`${name} needs a reference and a pattern`);
        const pattern = astring(args[1]);
        if (pattern === "") this.io.write(`* ${name} (\\Noselect) "/" ""\r\n`);
        else if (matchesInbox(astring(args[0]) + pattern)) this.io.write(`* ${name} (\\HasNoChildren) "/" "INBOX"\r\n`);
        return ok(`${name} completed`);
      }
      case "SUBSCRIBE":
      case "UNSUBSCRIBE":
        this.requireAuth();
        if (astring(args[0]).toUpperCase() !== "INBOX") throw new No("no such mailbox");
        return ok(`${name} completed`);
      case "CREATE":
      case "DELETE":
      case "RENAME":
      case "APPEND":
      case "COPY":
        this.requireAuth();
        throw new No(`[CANNOT] ${name} is not offered: the inbox receives mail by SMTP only`);
      case "SELECT":
      case "EXAMINE":
        return this.select(tag, args, name === "EXAMINE");
      case "STATUS": {
        const mb = this.requireAuth();
        if (astring(args[0]).toUpperCase() !== "INBOX") throw new No("[NONEXISTENT] no such mailbox");
        const items = args[1]?.kind === "list" ? args[1].items.map((t) => atom(t).toUpperCase()) : [];
        if (items.length === 0) throw new ImapSyntaxError("STATUS needs items");
        const msgs = await mb.list();
        const values: Record<string, number> = {
          MESSAGES: msgs.length,
          RECENT: 0,
          UIDNEXT: (msgs.at(-1)?.uid ?? 0) + 1,
          UIDVALIDITY: mb.uidValidity,
          UNSEEN: msgs.filter((m) => !m.seen).length,
        };
        const parts = items.map((i) => {
          if (!(i in values)) throw new ImapSyntaxError(`unknown STATUS item ${i}`);
          return `${i} ${values[i]}`;
        });
        this.io.write(`* STATUS "INBOX" (${parts.join(" ")})\r\n`);
        return ok("STATUS completed");
      }
      case "CLOSE":
      case "UNSELECT": {
        const sel = this.requireSelected();
        if (name === "CLOSE" && !sel.readOnly) await this.expunge(false, null);
        this.selected = null;
        return ok(`${name} completed`);
      }
      case "EXPUNGE": {
        const sel = this.requireSelected();
        if (sel.readOnly) throw new No("[READ-ONLY] mailbox is read-only");
        const set = uid ? parseSequenceSet(atom(args[0])) : null;
        await this.expunge(true, set);
        return ok("EXPUNGE completed");
      }
      case "FETCH":
        await this.fetch(args, uid);
        return ok(`${uid ? "UID " : ""}FETCH completed`);
      case "STORE":
        await this.store(args, uid);
        return ok(`${uid ? "UID " : ""}STORE completed`);
      case "SEARCH":
        await this.search(args, uid);
        return ok(`${uid ? "UID " : ""}SEARCH completed`);
      case "IDLE": {
        const mb = this.requireAuth();
        this.io.write("+ idling\r\n");
        const unsubscribe = mb.onMail(() => {
          if (this.idle && this.selected) void this.refresh(true).catch(() => undefined);
        });
        this.idle = { tag, unsubscribe };
        this.opts.onIdle?.(this, true);
        // mail that came between the last look and the subscription
        if (this.selected) await this.refresh(true);
        return;
      }
      default:
        throw new ImapSyntaxError(`unknown command ${name}`);
    }
  }

  private continuation(): Promise<string> {
    this.io.write("+ \r\n");
    return new Promise((resolve) => {
      const check = () => {
        const lf = this.buf.indexOf(0x0a);
        if (lf >= 0) {
          const line = this.buf.subarray(0, lf).toString("latin1").trim();
          this.buf = this.buf.subarray(lf + 1);
          this.waiting = null;
          resolve(line);
        }
      };
      this.waiting = check;
      check();
    });
  }

  private waiting: (() => void) | null = null;

  private async login(tag: string, user: string, password: string): Promise<void> {
    const mb = await this.backend.login(user, password, this.io.remoteAddress);
    if (!mb) throw new No("[AUTHENTICATIONFAILED] invalid credentials");
    this.mailbox = mb;
    this.io.write(`${tag} OK [CAPABILITY ${this.capabilities().join(" ")}] logged in\r\n`);
  }

  private async select(tag: string, args: Token[], examine: boolean): Promise<void> {
    const mb = this.requireAuth();
    this.selected = null;
    if (astring(args[0]).toUpperCase() !== "INBOX") throw new No("[NONEXISTENT] no such mailbox");
    const readOnly = examine || !mb.canManage;
    const messages = (await mb.list()).map((m) => ({ ...m, deleted: false }));
    this.selected = { readOnly, messages };
    const unseen = messages.findIndex((m) => !m.seen);
    this.io.write(
      [
        `* ${messages.length} EXISTS`,
        `* 0 RECENT`,
        `* FLAGS (\\Seen \\Deleted)`,
        `* OK [PERMANENTFLAGS (${readOnly ? "" : "\\Seen \\Deleted"})] flags`,
        ...(unseen >= 0 ? [`* OK [UNSEEN ${unseen + 1}] first unseen`] : []),
        `* OK [UIDVALIDITY ${mb.uidValidity}] UIDs valid`,
        `* OK [UIDNEXT ${(messages.at(-1)?.uid ?? 0) + 1}] predicted next UID`,
        `${tag} OK [${readOnly ? "READ-ONLY" : "READ-WRITE"}] ${examine ? "EXAMINE" : "SELECT"} completed`,
      ].join("\r\n") + "\r\n",
    );
  }

  /** Tells the client of mail that came and mail deleted elsewhere since the last look. */
  private async refresh(tellExpunges: boolean): Promise<void> {
    const sel = this.selected;
    const mb = this.mailbox;
    if (!sel || !mb) return;
    const now = await mb.list();
    if (this.selected !== sel) return;
    const ids = new Set(now.map((m) => m.id));
    if (tellExpunges) {
      for (let i = sel.messages.length - 1; i >= 0; i--) {
        if (!ids.has((sel.messages[i] as Held).id)) {
          sel.messages.splice(i, 1);
          this.io.write(`* ${i + 1} EXPUNGE\r\n`);
        }
      }
    }
    const maxUid = sel.messages.at(-1)?.uid ?? 0;
    const added = now.filter((m) => m.uid > maxUid);
    for (const m of now) {
      const held = sel.messages.find((h) => h.id === m.id);
      if (held && held.seen !== m.seen) {
        held.seen = m.seen;
        this.io.write(`* ${sel.messages.indexOf(held) + 1} FETCH (FLAGS (${flagsOf(held)}))\r\n`);
      }
    }
    if (added.length) {
      sel.messages.push(...added.map((m) => ({ ...m, deleted: false })));
      this.io.write(`* ${sel.messages.length} EXISTS\r\n`);
    }
  }

  private async expunge(tell: boolean, uidSet: SeqRange[] | null): Promise<void> {
    const sel = this.requireSelected();
    const mb = this.requireAuth();
    const doomed = sel.messages.filter((m) => m.deleted && (!uidSet || inSequenceSet(uidSet, m.uid, sel.messages.at(-1)?.uid ?? 0)));
    if (doomed.length && !mb.canManage) throw new No("[NOPERM] this key may not delete emails (team.emails.manage)");
    for (const m of doomed) {
      await mb.remove(m.id);
      const i = sel.messages.indexOf(m);
      sel.messages.splice(i, 1);
      this.cache.delete(m.id);
      if (tell) this.io.write(`* ${i + 1} EXPUNGE\r\n`);
    }
  }

  /** The messages a (UID) sequence set names, with their sequence numbers. */
  private resolve(setText: string, uid: boolean): Array<{ seq: number; msg: Held }> {
    const sel = this.requireSelected();
    const set = parseSequenceSet(setText);
    const max = uid ? (sel.messages.at(-1)?.uid ?? 0) : sel.messages.length;
    if (!uid && set.some(([lo, hi]) => (lo !== Infinity && lo > max) || (hi !== Infinity && hi > max)))
      throw new ImapSyntaxError("no such message");
    return sel.messages.map((msg, i) => ({ seq: i + 1, msg })).filter(({ seq, msg }) => inSequenceSet(set, uid ? msg.uid : seq, max));
  }

  private async parsed(msg: Held): Promise<MimePart> {
    const known = this.cache.get(msg.id);
    if (known) return known;
    const raw = await this.requireAuth().raw(msg.id);
    const part = parseMime(raw);
    this.cache.set(msg.id, part, raw.length);
    return part;
  }

  private async fetch(args: Token[], uid: boolean): Promise<void> {
    const targets = this.resolve(atom(args[0]), uid);
    const spec = args[1];
    if (!spec || args.length !== 2) throw new ImapSyntaxError("FETCH needs a set and items");
    let items: string[] = spec.kind === "list" ? spec.items.map((t) => atom(t).toUpperCase()) : [atom(spec).toUpperCase()];
    if (items.length === 1) {
      const macro = {
        ALL: ["FLAGS", "INTERNALDATE", "RFC822.SIZE", "ENVELOPE"],
        FAST: ["FLAGS", "INTERNALDATE", "RFC822.SIZE"],
        FULL: ["FLAGS", "INTERNALDATE", "RFC822.SIZE", "ENVELOPE", "BODY"],
      }[items[0] as string];
      if (macro) items = macro;
    }
    if (uid && !items.includes("UID")) items.unshift("UID");
    for (const it of items) if (!isFetchItem(it)) throw new ImapSyntaxError(`unknown FETCH item ${it}`);
    const mb = this.requireAuth();
    const sel = this.requireSelected();
    for (const { seq, msg } of targets) {
      const out: Array<string | Buffer> = [];
      let setsSeen = false;
      for (const item of items) {
        if (item === "UID") out.push(`UID ${msg.uid}`);
        else if (item === "FLAGS") out.push(`FLAGS (${flagsOf(msg)})`);
        else if (item === "INTERNALDATE") out.push(`INTERNALDATE ${imapDateTime(msg.receivedAt)}`);
        else if (item === "RFC822.SIZE") out.push(`RFC822.SIZE ${(await this.parsed(msg)).raw.length}`);
        else if (item === "ENVELOPE") out.push(`ENVELOPE ${envelope(await this.parsed(msg))}`);
        else if (item === "BODYSTRUCTURE") out.push(`BODYSTRUCTURE ${bodyStructure(await this.parsed(msg))}`);
        else if (item === "BODY") out.push(`BODY ${bodyStructure(await this.parsed(msg), false)}`);
        else if (item === "RFC822" || item === "RFC822.HEADER" || item === "RFC822.TEXT") {
          const part = await this.parsed(msg);
          const bytes = item === "RFC822" ? part.raw : item === "RFC822.HEADER" ? part.header : part.body;
          out.push(`${item} {${bytes.length}}\r\n`, bytes);
          if (item !== "RFC822.HEADER") setsSeen = true;
        } else {
          const m = /^BODY(\.PEEK)?\[([^\]]*)\](?:<(\d+)\.(\d+)>)?$/.exec(item) as RegExpExecArray;
          const part = await this.parsed(msg);
          let bytes = sectionBytes(part, m[2] as string);
          let label = `BODY[${(m[2] as string).toUpperCase()}]`;
          if (m[3] !== undefined) {
            const start = Number(m[3]);
            bytes = bytes.subarray(start, start + Number(m[4]));
            label += `<${start}>`;
          }
          out.push(`${label} {${bytes.length}}\r\n`, bytes);
          if (!m[1]) setsSeen = true;
        }
      }
      if (setsSeen && !msg.seen && !sel.readOnly && mb.canManage) {
        await mb.setSeen(msg.id, true);
        msg.seen = true;
        if (!items.includes("FLAGS")) out.push(`FLAGS (${flagsOf(msg)})`);
      }
      const pieces: Array<string | Buffer> = [`* ${seq} FETCH (`];
      out.forEach((p, i) => {
        const prev = out[i - 1];
        if (i > 0 && !(Buffer.isBuffer(p) && typeof prev === "string" && prev.endsWith("}\r\n"))) pieces.push(" ");
        pieces.push(p);
      });
      pieces.push(")\r\n");
      this.io.write(Buffer.concat(pieces.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p, "latin1")))));
    }
  }

  private async store(args: Token[], uid: boolean): Promise<void> {
    const sel = this.requireSelected();
    const mb = this.requireAuth();
    const targets = this.resolve(atom(args[0]), uid);
    const op = atom(args[1]).toUpperCase();
    const m = /^([+-]?)FLAGS(\.SILENT)?$/.exec(op);
    if (!m) throw new ImapSyntaxError("bad STORE item");
    const flagTokens = args[2]?.kind === "list" ? args[2].items : args.slice(2);
    const flags = flagTokens.map((t) => atom(t).toLowerCase());
    for (const f of flags) if (f !== "\\seen" && f !== "\\deleted") throw new No("[CANNOT] only \\Seen and \\Deleted are kept");
    if (sel.readOnly || !mb.canManage) throw new No("[READ-ONLY] this key may not change emails (team.emails.manage)");
    for (const { seq, msg } of targets) {
      const has = (f: string) => flags.includes(f);
      const want = (f: string, cur: boolean) => (m[1] === "+" ? cur || has(f) : m[1] === "-" ? cur && !has(f) : has(f));
      const seen = want("\\seen", msg.seen);
      msg.deleted = want("\\deleted", msg.deleted);
      if (seen !== msg.seen) {
        await mb.setSeen(msg.id, seen);
        msg.seen = seen;
      }
      if (!m[2]) this.io.write(`* ${seq} FETCH (${uid ? `UID ${msg.uid} ` : ""}FLAGS (${flagsOf(msg)}))\r\n`);
    }
  }

  private async search(args: Token[], uid: boolean): Promise<void> {
    const sel = this.requireSelected();
    if (args[0]?.kind === "atom" && args[0].value.toUpperCase() === "CHARSET") {
      const cs = astring(args[1]).toUpperCase();
      if (cs !== "UTF-8" && cs !== "US-ASCII") throw new No("[BADCHARSET (UTF-8 US-ASCII)] unsupported charset");
      args = args.slice(2);
    }
    const test = compileSearch(args, sel.messages.length, sel.messages.at(-1)?.uid ?? 0);
    const hits: number[] = [];
    for (let i = 0; i < sel.messages.length; i++) {
      const msg = sel.messages[i] as Held;
      if (await test({ seq: i + 1, msg, part: () => this.parsed(msg) })) hits.push(uid ? msg.uid : i + 1);
    }
    this.io.write(`* SEARCH${hits.map((n) => ` ${n}`).join("")}\r\n`);
  }
}

function flagsOf(m: { seen: boolean; deleted: boolean }): string {
  return [m.seen ? "\\Seen" : null, m.deleted ? "\\Deleted" : null].filter(Boolean).join(" ");
}

function isFetchItem(item: string): boolean {
  return (
    ["UID", "FLAGS", "INTERNALDATE", "RFC822.SIZE", "ENVELOPE", "BODYSTRUCTURE", "BODY", "RFC822", "RFC822.HEADER", "RFC822.TEXT"].includes(
      item,
    ) || /^BODY(\.PEEK)?\[[^\]]*\](<\d+\.\d+>)?$/.test(item)
  );
}

function matchesInbox(pattern: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/%/g, "[^/]*")}$`,
    "i",
  );
  return re.test("INBOX");
}

/** RFC 4616 PLAIN: `authzid NUL authcid NUL passwd`, base64. */
export function decodePlain(b64: string): { user: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return null;
  const parts = Buffer.from(b64, "base64").toString("utf8").split("\0");
  if (parts.length !== 3) return null;
  const [authz, user, password] = parts as [string, string, string];
  if (!user || (authz && authz !== user)) return null;
  return { user, password };
}

interface SearchSubject {
  seq: number;
  msg: Held;
  part: () => Promise<MimePart>;
}
type Test = (s: SearchSubject) => boolean | Promise<boolean>;

const ci = (hay: string | null, needle: string) => (hay ?? "").toLowerCase().includes(needle.toLowerCase());

/** The search keys of the spec's subset (ALL, SEEN, UNSEEN, FROM, TO, SUBJECT, BODY, SINCE, BEFORE, UID, a sequence set, NOT, OR, lists). */
export function compileSearch(args: Token[], maxSeq: number, maxUid: number): Test {
  let pos = 0;
  const next = (): Test => {
    const t = args[pos++];
    if (!t) throw new ImapSyntaxError("missing search key");
    if (t.kind === "list") {
      const inner = compileSearch(t.items, maxSeq, maxUid);
      return inner;
    }
    if (t.kind === "string") throw new ImapSyntaxError("unexpected string in search");
    const key = t.value.toUpperCase();
    const arg = () => astring(args[pos++]);
    switch (key) {
      case "ALL":
        return () => true;
      case "SEEN":
        return (s) => s.msg.seen;
      case "UNSEEN":
        return (s) => !s.msg.seen;
      case "DELETED":
        return (s) => s.msg.deleted;
      case "UNDELETED":
        return (s) => !s.msg.deleted;
      case "FROM":
      case "TO":
      case "CC":
      case "SUBJECT": {
        const needle = arg();
        return async (s) => ci(headerValue((await s.part()).headers, key.toLowerCase()), needle);
      }
      case "BODY":
      case "TEXT": {
        const needle = arg();
        return async (s) => {
          const p = await s.part();
          return ci(key === "TEXT" ? p.raw.toString("utf8") : p.body.toString("utf8"), needle);
        };
      }
      case "SINCE": {
        const d = parseImapDate(arg()).getTime();
        return (s) => s.msg.receivedAt.getTime() >= d;
      }
      case "BEFORE": {
        const d = parseImapDate(arg()).getTime();
        return (s) => s.msg.receivedAt.getTime() < d;
      }
      case "ON": {
        const d = parseImapDate(arg()).getTime();
        return (s) => s.msg.receivedAt.getTime() >= d && s.msg.receivedAt.getTime() < d + 86_400_000;
      }
      case "UID": {
        const set = parseSequenceSet(atom(args[pos++]));
        return (s) => inSequenceSet(set, s.msg.uid, maxUid);
      }
      case "NOT": {
        const inner = next();
        return async (s) => !(await inner(s));
      }
      case "OR": {
        const a = next();
        const b = next();
        return async (s) => (await a(s)) || (await b(s));
      }
      default: {
        if (/^[\d*:,]+$/.test(t.value)) {
          const set = parseSequenceSet(t.value);
          return (s) => inSequenceSet(set, s.seq, maxSeq);
        }
        throw new ImapSyntaxError(`unknown search key ${key}`);
      }
    }
  };
  const tests: Test[] = [];
  while (pos < args.length) tests.push(next());
  if (tests.length === 0) throw new ImapSyntaxError("SEARCH needs a key");
  return async (s) => {
    for (const t of tests) if (!(await t(s))) return false;
    return true;
  };
}
