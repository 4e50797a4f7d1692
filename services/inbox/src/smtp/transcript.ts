import type { SMTPServerSession } from "smtp-server";
import type { Clock } from "@burnbox/service-kit/runtime";
import { storedTranscript, type Direction, type HeldLine, type StoredTranscript } from "../domain/smtp/stored-transcript";

/** At most this many lines are held per transaction (with the session's start); later ones are dropped. */
export const MAX_TRANSCRIPT_LINES = 200;
/** A longer line is cut here (SMTP's own limit for a command line is 512). */
export const MAX_LINE_CHARS = 1000;

/** What replaces the credentials of an AUTH command. */
export const REDACTED = "/* secured */";

/**
 * A client line as it may be kept: an AUTH command keeps its mechanism only (smtp-server already
 * hides the continuation lines of an exchange the same way).
 */
export function redacted(line: string): string {
  const auth = /^(AUTH[ \t]+\S+)[ \t]+\S/i.exec(line);
  return auth ? `${auth[1]} ${REDACTED}` : line;
}

const cut = (text: string) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}...` : text);

/**
 * The lines of one connection: those before its first MAIL (the greeting, EHLO, STARTTLS) and
 * those of the transaction in progress; a new MAIL drops the previous transaction's.
 */
export class SessionLines {
  private lines: HeldLine[] = [];
  /** How many lines came before the first MAIL (-1 until then). */
  private start = -1;

  add(dir: Direction, text: string, at: number): void {
    if (dir === "c" && /^MAIL\b/i.test(text)) {
      if (this.start < 0) this.start = this.lines.length;
      else this.lines.length = this.start;
    }
    if (this.lines.length < MAX_TRANSCRIPT_LINES) this.lines.push({ at, dir, text: cut(text) });
  }

  /** The lines so far, with `last` (a reply about to be sent) after them. */
  upTo(last?: HeldLine): HeldLine[] {
    return last ? [...this.lines, { ...last, text: cut(last.text) }] : [...this.lines];
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
    if (dir === "c") lines.add("c", redacted(line), at);
    // a multi-line reply (EHLO) is one payload
    else for (const part of line.split("\r\n")) lines.add("s", part, at);
  }

  /**
   * The stored transcript of the session's connection so far, for the transaction in progress,
   * with `reply` (the reply about to be sent for it) as its last line, timed now or at
   * `notBefore` if that is later (a reply held by `delay_ms`).
   */
  transcript(session: SMTPServerSession, reply?: string, notBefore = 0): StoredTranscript {
    const last = reply === undefined ? undefined : { at: Math.max(this.now(), notBefore), dir: "s" as const, text: reply };
    const lines = this.sessions.get(session.id)?.upTo(last) ?? [];
    return storedTranscript({ ip: session.remoteAddress, helo: session.hostNameAppearsAs || null, tls: session.secure }, lines);
  }

  /** Connections held (tests: none once every connection closed). */
  get open(): number {
    return this.sessions.size;
  }
}
