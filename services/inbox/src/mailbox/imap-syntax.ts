/**
 * IMAP4rev1 (RFC 3501) command syntax for the subset the mailbox entrypoint serves: framing of
 * command lines with literals (`{n}` synchronizing, `{n+}` LITERAL+), tokens (atoms, quoted
 * strings, literals, parenthesized lists, `BODY[...]<...>` fetch atoms), sequence sets, and the
 * quoting of what the server sends back. Strict: anything it does not recognise is a BAD.
 */

export type Token = { kind: "atom"; value: string } | { kind: "string"; value: string; bytes: Buffer } | { kind: "list"; items: Token[] };

export class ImapSyntaxError extends Error {}

/** The most bytes one command may hold, literals included. */
export const MAX_COMMAND_BYTES = 1024 * 1024;

/**
 * Where the next complete command in `buf` ends (the index after its final CRLF), or, when more
 * bytes are needed, `{ need: "more" }`, with `literal` set when the client waits for a `+`
 * continuation before sending a synchronizing literal of that size.
 */
export function frameCommand(buf: Buffer, from = 0): { end: number } | { need: "more"; literal?: { size: number; at: number } } {
  let pos = from;
  for (;;) {
    const lf = buf.indexOf(0x0a, pos);
    if (lf < 0) return { need: "more" };
    const lineEnd = lf > 0 && buf[lf - 1] === 0x0d ? lf - 1 : lf;
    const line = buf.subarray(pos, lineEnd).toString("latin1");
    const m = /\{(\d{1,10})(\+?)\}$/.exec(line);
    if (!m) return { end: lf + 1 };
    const size = Number(m[1]);
    if (size > MAX_COMMAND_BYTES) throw new ImapSyntaxError("literal too large");
    const literalStart = lf + 1;
    if (buf.length < literalStart + size) return m[2] === "+" ? { need: "more" } : { need: "more", literal: { size, at: literalStart } };
    pos = literalStart + size;
  }
}

const ATOM_SPECIALS = new Set([0x28, 0x29, 0x7b, 0x20, 0x22, 0x0d, 0x0a]); // ( ) { SP " CR LF (a backslash opens a flag: `\\Seen`)

/** The tokens of one framed command (without its final CRLF). */
export function tokenize(cmd: Buffer): Token[] {
  let pos = 0;
  const end = cmd.length >= 2 && cmd[cmd.length - 2] === 0x0d ? cmd.length - 2 : cmd.length - (cmd[cmd.length - 1] === 0x0a ? 1 : 0);

  function list(close: number | null): Token[] {
    const out: Token[] = [];
    if (close !== null && cmd[pos] === close) {
      pos++;
      return out;
    }
    if (close === null && pos >= end) return out;
    for (;;) {
      out.push(token());
      if (pos >= end) {
        if (close !== null) throw new ImapSyntaxError("unterminated list");
        return out;
      }
      const c = cmd[pos];
      if (c === close) {
        pos++;
        return out;
      }
      if (c !== 0x20) throw new ImapSyntaxError("expected a space");
      pos++;
    }
  }

  function token(): Token {
    const c = cmd[pos];
    if (c === undefined) throw new ImapSyntaxError("missing argument");
    if (c === 0x28) {
      pos++;
      return { kind: "list", items: list(0x29) };
    }
    if (c === 0x22) {
      pos++;
      const bytes: number[] = [];
      for (;;) {
        if (pos >= end) throw new ImapSyntaxError("unterminated quoted string");
        const b = cmd[pos++] as number;
        if (b === 0x22) break;
        if (b === 0x5c) {
          const n = cmd[pos++];
          if (n !== 0x22 && n !== 0x5c) throw new ImapSyntaxError("bad escape in quoted string");
          bytes.push(n);
        } else bytes.push(b);
      }
      const buf = Buffer.from(bytes);
      return { kind: "string", value: buf.toString("utf8"), bytes: buf };
    }
    if (c === 0x7b) {
      const close = cmd.indexOf(0x7d, pos);
      const m = close > 0 ? /^\{(\d+)\+?\}$/.exec(cmd.subarray(pos, close + 1).toString("latin1")) : null;
      if (!m) throw new ImapSyntaxError("bad literal");
      pos = close + 1;
      if (cmd[pos] === 0x0d) pos++;
      if (cmd[pos] !== 0x0a) throw new ImapSyntaxError("literal not followed by CRLF");
      pos++;
      const size = Number(m[1]);
      const buf = Buffer.from(cmd.subarray(pos, pos + size));
      if (buf.length !== size) throw new ImapSyntaxError("short literal");
      pos += size;
      return { kind: "string", value: buf.toString("utf8"), bytes: buf };
    }
    // an atom; a `[` opens a section that may hold spaces and lists, up to its `]`
    const start = pos;
    let depth = 0;
    while (pos < end) {
      const b = cmd[pos] as number;
      if (b === 0x5b) depth++;
      else if (b === 0x5d) depth = Math.max(0, depth - 1);
      else if (depth === 0 && ATOM_SPECIALS.has(b)) break;
      else if (depth === 0 && b === 0x29) break;
      else if (b < 0x20 || b === 0x7f) throw new ImapSyntaxError("control character");
      pos++;
    }
    if (depth > 0) throw new ImapSyntaxError("unterminated section");
    if (pos === start) throw new ImapSyntaxError("empty atom");
    return { kind: "atom", value: cmd.subarray(start, pos).toString("utf8") };
  }

  return list(null);
}

/** A token's text when it is an atom or a string (astring), else a syntax error. */
export function astring(t: Token | undefined): string {
  if (!t || t.kind === "list") throw new ImapSyntaxError("expected a string");
  return t.value;
}

export function atom(t: Token | undefined): string {
  if (!t || t.kind !== "atom") throw new ImapSyntaxError("expected an atom");
  return t.value;
}

/** One range of a sequence set; `*` is `Infinity` until resolved against the mailbox. */
export type SeqRange = [number, number];

/** RFC 3501 sequence-set: `1`, `2:4`, `*`, `5:*`, comma separated. */
export function parseSequenceSet(text: string): SeqRange[] {
  if (!/^(\d+|\*)(:(\d+|\*))?(,(\d+|\*)(:(\d+|\*))?)*$/.test(text)) throw new ImapSyntaxError("bad sequence set");
  return text.split(",").map((part) => {
    const [a, b] = part.split(":").map((n) => (n === "*" ? Infinity : Number(n)));
    if (a === 0 || b === 0) throw new ImapSyntaxError("sequence number 0");
    const lo = a as number;
    const hi = b ?? lo;
    return lo <= hi ? [lo, hi] : [hi, lo];
  });
}

/** Whether `n` is in the set, `*` being `max` (the largest number in use). */
export function inSequenceSet(set: SeqRange[], n: number, max: number): boolean {
  return set.some(([lo, hi]) => {
    const l = lo === Infinity ? max : lo;
    const h = hi === Infinity ? max : hi;
    return n >= Math.min(l, h) && n <= Math.max(l, h);
  });
}

/** A string as the server sends it: quoted when it can be, else a literal; null is NIL. */
export function quote(value: string | null | undefined): string {
  if (value === null || value === undefined) return "NIL";
  if (/^[\x20-\x7e]*$/.test(value) && value.length < 1000) return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const bytes = Buffer.from(value, "utf8");
  return `{${bytes.length}}\r\n${bytes.toString("latin1")}`;
}

/** IMAP date-time: `"02-Dec-2026 12:45:33 +0000"`. */
export function imapDateTime(d: Date): string {
  const mon = MONTHS[d.getUTCMonth()];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `"${pad(d.getUTCDate())}-${mon}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000"`;
}

export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** IMAP date (SEARCH SINCE/BEFORE): `1-Feb-1994`; the day it names, at 00:00 UTC. */
export function parseImapDate(text: string): Date {
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  const month = m ? MONTHS.findIndex((x) => x.toLowerCase() === (m[2] as string).toLowerCase()) : -1;
  if (!m || month < 0) throw new ImapSyntaxError("bad date");
  return new Date(Date.UTC(Number(m[3]), month, Number(m[1])));
}
