import { pipeline } from "@burnbox/service-kit/runtime";
import type { MailboxBackend, MailboxMessage, MailboxSession } from "./backend";
import { decodePlain, type ImapTransport } from "./imap-session";
import { SessionCache } from "./session-cache";

/** The transport is the same shape as IMAP's. */
export type Pop3Transport = ImapTransport;

/** A message's bytes dot-stuffed and ended with `.` (RFC 1939 3): the multi-line response body. */
export function dotStuff(raw: Buffer): Buffer {
  const text = raw.toString("latin1");
  let out = text.replace(/(^|\n)\./g, "$1..");
  if (!out.endsWith("\r\n")) out += out.endsWith("\n") ? "" : "\r\n";
  return Buffer.from(`${out}.\r\n`, "latin1");
}

/** The header, the blank line and the first `lines` lines of the body (TOP). */
export function topOf(raw: Buffer, lines: number): Buffer {
  const text = raw.toString("latin1");
  const m = /\r?\n\r?\n/.exec(text);
  if (!m) return raw;
  const headerEnd = m.index + m[0].length;
  const body = text.slice(headerEnd);
  const kept: string[] = [];
  let pos = 0;
  for (let i = 0; i < lines && pos < body.length; i++) {
    const lf = body.indexOf("\n", pos);
    const end = lf < 0 ? body.length : lf + 1;
    kept.push(body.slice(pos, end));
    pos = end;
  }
  return Buffer.from(text.slice(0, headerEnd) + kept.join(""), "latin1");
}

/** The commands the metrics name (`burnbox_mailbox_commands_total`); any other is counted as `other`. */
const KNOWN_COMMANDS = new Set([
  "CAPA",
  "QUIT",
  "NOOP",
  "STLS",
  "USER",
  "PASS",
  "AUTH",
  "STAT",
  "LIST",
  "UIDL",
  "RETR",
  "TOP",
  "DELE",
  "RSET",
]);

/**
 * One POP3 connection (RFC 1939, with RFC 2449 CAPA, RFC 5034 AUTH PLAIN, RFC 2595 STLS). The
 * maildrop is the inbox as it was at login; DELE marks, QUIT (the UPDATE state) deletes.
 */
export class Pop3Session {
  private buf = "";
  private busy = false;
  private user: string | null = null;
  private mailbox: MailboxSession | null = null;
  private messages: Array<MailboxMessage & { deleted: boolean }> = [];
  private ended = false;
  private authPlainPending = false;
  /** The messages read in this session (TOP then RETR, or a RETR again, reads storage once). */
  private readonly raws = new SessionCache<Buffer>();
  /** The outcome of the command being answered: its first reply line's `+OK` or `-ERR` (the metrics'). */
  private outcome: "ok" | "no" | null = null;

  constructor(
    private readonly backend: MailboxBackend,
    private readonly io: Pop3Transport,
    private readonly opts: { hostname: string; tlsOffered: boolean },
  ) {}

  greet(): void {
    this.io.write(`+OK ${this.opts.hostname} BurnBox POP3 ready\r\n`);
  }

  bye(): void {
    if (this.ended) return;
    this.ended = true;
    this.io.write("-ERR server shutting down\r\n");
    this.io.close();
  }

  end(): void {
    this.ended = true;
  }

  push(chunk: Buffer): void {
    this.buf += chunk.toString("latin1");
    if (this.buf.length > 8192 && !this.buf.includes("\n")) {
      this.io.write("-ERR line too long\r\n");
      this.io.close();
      this.ended = true;
      return;
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.ended) {
        const lf = this.buf.indexOf("\n");
        if (lf < 0) break;
        const line = this.buf.slice(0, lf).replace(/\r$/, "");
        this.buf = this.buf.slice(lf + 1);
        const name = this.authPlainPending ? "AUTH" : (line.split(" ")[0] ?? "").toUpperCase();
        this.outcome = null;
        try {
          await this.run(line);
        } catch {
          this.write("-ERR [SYS/TEMP] temporary failure, try again\r\n");
        }
        pipeline.mailboxCommands.inc({
          protocol: "pop3",
          command: KNOWN_COMMANDS.has(name) ? name : "other",
          outcome: this.outcome ?? "ok",
        });
      }
    } finally {
      this.busy = false;
    }
  }

  private capa(): string[] {
    const caps = ["TOP", "UIDL", "USER", "RESP-CODES", "AUTH-RESP-CODE", "PIPELINING", "SASL PLAIN", "IMPLEMENTATION BurnBox"];
    if (!this.mailbox && this.opts.tlsOffered && !this.io.encrypted) caps.push("STLS");
    return caps;
  }

  /** Writes a reply; the first of a command's tells its outcome. */
  private write(data: string | Buffer): void {
    const first = typeof data === "string" ? data.charCodeAt(0) : data[0];
    this.outcome ??= first === 0x2d /* - */ ? "no" : "ok";
    this.io.write(data);
  }

  private message(arg: string | undefined): (MailboxMessage & { deleted: boolean }) | null {
    if (!arg || !/^\d+$/.test(arg)) return null;
    const m = this.messages[Number(arg) - 1];
    return m && !m.deleted ? m : null;
  }

  private async run(line: string): Promise<void> {
    const w = (s: string | Buffer) => this.write(s);
    if (this.authPlainPending) {
      this.authPlainPending = false;
      if (line === "*") return w("-ERR AUTH cancelled\r\n");
      return this.login(decodePlain(line.trim()));
    }
    const [rawCmd = "", ...args] = line.split(" ");
    const cmd = rawCmd.toUpperCase();
    if (cmd === "CAPA") return w(`+OK capability list follows\r\n${this.capa().join("\r\n")}\r\n.\r\n`);
    if (cmd === "QUIT") {
      if (this.mailbox) {
        const doomed = this.messages.filter((m) => m.deleted);
        if (doomed.length && !this.mailbox.canManage) {
          w("-ERR [AUTH] this key may not delete emails (team.emails.manage); nothing deleted\r\n");
        } else {
          for (const m of doomed) await this.mailbox.remove(m.id);
          w(`+OK ${this.opts.hostname} signing off (${doomed.length} deleted)\r\n`);
        }
      } else w("+OK bye\r\n");
      this.ended = true;
      this.io.close();
      return;
    }
    if (cmd === "NOOP" && this.mailbox) return w("+OK\r\n");
    if (!this.mailbox) {
      switch (cmd) {
        case "STLS":
          if (!this.opts.tlsOffered || !this.io.startTls || this.io.encrypted) return w("-ERR STLS not available\r\n");
          w("+OK begin TLS negotiation\r\n");
          this.buf = "";
          await this.io.startTls();
          return;
        case "USER":
          if (!args[0]) return w("-ERR USER needs a name\r\n");
          this.user = args.join(" ");
          return w("+OK send PASS\r\n");
        case "PASS":
          if (this.user === null) return w("-ERR USER first\r\n");
          return this.login({ user: this.user, password: line.slice(5) });
        case "AUTH":
          if (!args[0]) return w(`+OK\r\nPLAIN\r\n.\r\n`);
          if (args[0].toUpperCase() !== "PLAIN") return w("-ERR unsupported mechanism\r\n");
          if (args[1]) return this.login(args[1] === "=" ? null : decodePlain(args[1]));
          this.authPlainPending = true;
          return w("+ \r\n");
        default:
          return w("-ERR log in first\r\n");
      }
    }
    const live = this.messages.filter((m) => !m.deleted);
    switch (cmd) {
      case "STAT":
        return w(`+OK ${live.length} ${live.reduce((n, m) => n + m.size, 0)}\r\n`);
      case "LIST":
      case "UIDL": {
        const field = (m: MailboxMessage) => (cmd === "LIST" ? String(m.size) : m.id);
        if (args[0] !== undefined) {
          const m = this.message(args[0]);
          return w(m ? `+OK ${args[0]} ${field(m)}\r\n` : "-ERR no such message\r\n");
        }
        const rows = this.messages.map((m, i) => (m.deleted ? null : `${i + 1} ${field(m)}\r\n`)).filter(Boolean);
        return w(`+OK ${live.length} messages\r\n${rows.join("")}.\r\n`);
      }
      case "RETR":
      case "TOP": {
        const m = this.message(args[0]);
        if (!m) return w("-ERR no such message\r\n");
        if (cmd === "TOP" && !/^\d+$/.test(args[1] ?? "")) return w("-ERR TOP needs a line count\r\n");
        const raw = await this.raw(this.mailbox, m.id);
        const bytes = cmd === "RETR" ? raw : topOf(raw, Number(args[1]));
        return w(
          Buffer.concat([Buffer.from(`+OK ${cmd === "RETR" ? `${raw.length} octets` : "top of message follows"}\r\n`), dotStuff(bytes)]),
        );
      }
      case "DELE": {
        const m = this.message(args[0]);
        if (!m) return w("-ERR no such message\r\n");
        if (!this.mailbox.canManage) return w("-ERR [AUTH] this key may not delete emails (team.emails.manage)\r\n");
        m.deleted = true;
        return w(`+OK message ${args[0]} deleted\r\n`);
      }
      case "RSET":
        for (const m of this.messages) m.deleted = false;
        return w(`+OK ${this.messages.length} messages\r\n`);
      default:
        return w("-ERR unknown command\r\n");
    }
  }

  /** A message's stored bytes, read once per session while the session's cache holds them. */
  private async raw(mailbox: MailboxSession, emailId: string): Promise<Buffer> {
    const known = this.raws.get(emailId);
    if (known) return known;
    const raw = await mailbox.raw(emailId);
    this.raws.set(emailId, raw, raw.length);
    return raw;
  }

  private async login(creds: { user: string; password: string } | null): Promise<void> {
    const mb = creds ? await this.backend.login(creds.user, creds.password, this.io.remoteAddress) : null;
    if (!mb) {
      this.user = null;
      this.write("-ERR [AUTH] invalid credentials\r\n");
      return;
    }
    this.mailbox = mb;
    this.messages = (await mb.list()).map((m) => ({ ...m, deleted: false }));
    this.write(`+OK maildrop has ${this.messages.length} messages\r\n`);
  }
}
