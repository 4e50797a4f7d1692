import type { SMTPServerSession } from "smtp-server";
import type { Clock } from "@burnbox/service-kit/runtime";
import { storedTranscript, type Direction, type HeldLine, type StoredTranscript } from "../domain/smtp/stored-transcript";
import { redacted } from "../domain/smtp/transcript-privacy";

export { REDACTED, redacted } from "../domain/smtp/transcript-privacy";

/** At most this many lines are held per transaction (with the session's start); later ones are dropped. */
export const MAX_TRANSCRIPT_LINES = 200;
/** A longer line is cut here (SMTP's own limit for a command line is 512). */
export const MAX_LINE_CHARS = 1000;

const cut = (text: string) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}...` : text);

/** Whose a RCPT TO and its reply are: the inbox the recipient was delivered to, "" for none (refused or unknown). */
interface RcptOwner {
  inbox: string;
}

/** A held line; a RCPT TO and the reply to it carry their owner, shared. */
type OwnedLine = HeldLine & { owner?: RcptOwner };

/**
 * The lines of one connection: those before its first MAIL (the greeting, EHLO, STARTTLS) and
 * those of the transaction in progress; a new MAIL drops the previous transaction's. Each RCPT TO
 * and its reply belong to the inbox it was delivered to (`claimRcpt`) and show only in that
 * inbox's transcript (`upTo`): the other recipients of a message, Bcc'd, unknown or another
 * tenant's, are no inbox's business.
 */
export class SessionLines {
  private lines: OwnedLine[] = [];
  /** How many lines came before the first MAIL (-1 until then). */
  private start = -1;
  /** The owner of the last RCPT TO, until the reply to it is held. */
  private awaitingReply: RcptOwner | null = null;
  /** The owner of the last RCPT TO, until the next one. */
  private lastRcpt: RcptOwner | null = null;
  /** Whether an AUTH exchange is going on (its lines are redacted). */
  inAuth = false;

  add(dir: Direction, text: string, at: number): void {
    let owner: RcptOwner | undefined;
    if (dir === "c") {
      this.awaitingReply = null;
      if (/^MAIL\b/i.test(text)) {
        if (this.start < 0) this.start = this.lines.length;
        else this.lines.length = this.start;
      } else if (/^RCPT\b/i.test(text)) {
        owner = this.lastRcpt = this.awaitingReply = { inbox: "" };
      }
    } else if (this.awaitingReply) {
      owner = this.awaitingReply;
      this.awaitingReply = null;
    }
    if (this.lines.length < MAX_TRANSCRIPT_LINES)
      this.lines.push(owner ? { at, dir, text: cut(text), owner } : { at, dir, text: cut(text) });
  }

  /** The last RCPT TO (and its reply) is the inbox's: it was delivered there. */
  claimRcpt(inboxId: string): void {
    if (this.lastRcpt) this.lastRcpt.inbox = inboxId;
  }

  /**
   * The lines so far as `inboxId`'s transcript shows them (every RCPT TO and reply but its own
   * left out), with `last` (a reply about to be sent) after them.
   */
  upTo(inboxId: string, last?: HeldLine): HeldLine[] {
    const held: HeldLine[] = [];
    for (const l of this.lines) if (!l.owner || l.owner.inbox === inboxId) held.push(l);
    if (last) held.push({ ...last, text: cut(last.text) });
    return held;
  }
}

/** The entry smtp-server's logger gets with each line (its bunyan-style first argument). */
interface LogEntry {
  tnx?: string;
  cid?: string;
}

/**
 * The SMTP conversation of every open connection, as the transcripts of extensions section 8
 * need it: smtp-server's logger (its one public view of every command and reply) records each
 * client line (`C:`) and server reply (`S:`) by connection; the DATA body is never logged, so it
 * is never held. A connection's lines go when it closes.
 */
export class TranscriptRecorder {
  private readonly sessions = new Map<string, SessionLines>();

  constructor(private readonly now: Clock = Date.now) {}

  /** The logger to give smtp-server (`logger` option): records, never prints. */
  readonly logger = {
    debug: (entry: LogEntry, _message: string, line?: unknown) => this.heard(entry, line),
    info: (entry: LogEntry) => {
      if (entry?.tnx === "close" && entry.cid) this.sessions.delete(entry.cid);
    },
    trace: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    fatal: () => undefined,
  };

  private heard(entry: LogEntry, line: unknown): void {
    const dir: Direction | null = entry?.tnx === "send" ? "s" : entry?.tnx === "command" ? "c" : null;
    if (!dir || !entry.cid || typeof line !== "string") return;
    let lines = this.sessions.get(entry.cid);
    if (!lines) this.sessions.set(entry.cid, (lines = new SessionLines()));
    const at = this.now();
    if (dir === "c") {
      const kept = redacted(line, lines.inAuth);
      lines.inAuth = kept.inAuth;
      lines.add("c", kept.text, at);
    }
    // a multi-line reply (EHLO) is one payload
    else for (const part of line.split("\r\n")) lines.add("s", part, at);
  }

  /** The RCPT TO the session's connection just sent (and its reply) is `inboxId`'s: it was delivered there. */
  claimRcpt(session: SMTPServerSession, inboxId: string): void {
    this.sessions.get(session.id)?.claimRcpt(inboxId);
  }

  /**
   * The stored transcript of the session's connection so far, for the transaction in progress, as
   * `inboxId` may see it (its own RCPT TO only), with `reply` (the reply about to be sent for it)
   * as its last line, timed now or at `notBefore` if that is later (a reply held by `delay_ms`).
   */
  transcript(session: SMTPServerSession, inboxId: string, reply?: string, notBefore = 0): StoredTranscript {
    const last = reply === undefined ? undefined : { at: Math.max(this.now(), notBefore), dir: "s" as const, text: reply };
    const lines = this.sessions.get(session.id)?.upTo(inboxId, last) ?? [];
    return storedTranscript({ ip: session.remoteAddress, helo: session.hostNameAppearsAs || null, tls: session.secure }, lines);
  }

  /** Connections held (tests: none once every connection closed). */
  get open(): number {
    return this.sessions.size;
  }
}
