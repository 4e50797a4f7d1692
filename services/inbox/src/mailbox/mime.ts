import { ImapSyntaxError, quote } from "./imap-syntax";

/**
 * The MIME structure of a stored raw message as IMAP shows it (RFC 3501 7.4.2: ENVELOPE,
 * BODYSTRUCTURE, and the byte ranges of `BODY[section]`). Everything is cut from the raw bytes,
 * never re-encoded: a section is a slice of what was received.
 */
export interface MimePart {
  /** The whole part: its header block (with the blank line that ends it) and its body. */
  raw: Buffer;
  header: Buffer;
  body: Buffer;
  headers: Array<[string, string]>;
  type: string;
  subtype: string;
  params: Array<[string, string]>;
  children: MimePart[];
  /** A message/rfc822 part's message. */
  message: MimePart | null;
}

const CRLF2 = Buffer.from("\r\n\r\n");
const LF2 = Buffer.from("\n\n");

function splitHeader(raw: Buffer): { header: Buffer; body: Buffer } {
  if (raw.subarray(0, 2).toString("latin1") === "\r\n") return { header: raw.subarray(0, 2), body: raw.subarray(2) };
  if (raw[0] === 0x0a) return { header: raw.subarray(0, 1), body: raw.subarray(1) };
  const crlf = raw.indexOf(CRLF2);
  const lf = raw.indexOf(LF2);
  if (crlf < 0 && lf < 0) return { header: raw, body: Buffer.alloc(0) };
  const [at, len] = crlf >= 0 && (lf < 0 || crlf < lf) ? [crlf, 4] : [lf, 2];
  return { header: raw.subarray(0, at + len), body: raw.subarray(at + len) };
}

/** Header fields, unfolded, in order; names as written. */
export function parseHeaders(header: Buffer): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of header.toString("utf8").split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && out.length > 0) {
      const last = out[out.length - 1] as [string, string];
      last[1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon > 0) out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return out;
}

export function headerValue(headers: Array<[string, string]>, name: string): string | null {
  const n = name.toLowerCase();
  return headers.find(([k]) => k.toLowerCase() === n)?.[1] ?? null;
}

/** `type/subtype; a=b; c="d"` into its parts (lower-cased type, params in order). */
export function parseContentType(
  value: string | null,
  fallback = "text/plain",
): { type: string; subtype: string; params: Array<[string, string]> } {
  const [main = "", ...rest] = splitParams(value ?? fallback);
  const [type, subtype] = main.toLowerCase().split("/");
  const params = paramsOf(rest);
  if (!type || !subtype) return { ...parseContentType(fallback), params };
  return { type, subtype, params };
}

function splitParams(value: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    if (ch === ";" && !quoted) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  out.push(cur.trim());
  return out.filter((p, i) => i === 0 || p.length > 0);
}

function paramsOf(parts: string[]): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  for (const p of parts) {
    const eq = p.indexOf("=");
    if (eq <= 0) continue;
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, "$1");
    params.push([p.slice(0, eq).trim().toLowerCase(), v]);
  }
  return params;
}

export function parseMime(raw: Buffer, defaultType = "text/plain"): MimePart {
  const { header, body } = splitHeader(raw);
  const headers = parseHeaders(header);
  const ct = parseContentType(headerValue(headers, "content-type"), defaultType);
  const part: MimePart = { raw, header, body, headers, ...ct, children: [], message: null };
  if (ct.type === "multipart") {
    const boundary = ct.params.find(([k]) => k === "boundary")?.[1];
    if (boundary)
      part.children = splitMultipart(body, boundary).map((p) => parseMime(p, ct.subtype === "digest" ? "message/rfc822" : "text/plain"));
  } else if (ct.type === "message" && ct.subtype === "rfc822") {
    part.message = parseMime(body);
  }
  return part;
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString("latin1");
  const delimiter = `--${boundary}`;
  const parts: Buffer[] = [];
  let start = -1;
  let pos = 0;
  while (pos <= text.length) {
    const at = text.indexOf(delimiter, pos);
    if (at < 0) break;
    const lineStart = at === 0 || text[at - 1] === "\n";
    if (!lineStart) {
      pos = at + delimiter.length;
      continue;
    }
    if (start >= 0) {
      // the CRLF before the delimiter belongs to it
      let end = at;
      if (text[end - 1] === "\n") end--;
      if (text[end - 1] === "\r") end--;
      parts.push(body.subarray(start, Math.max(start, end)));
    }
    const after = at + delimiter.length;
    if (text.startsWith("--", after)) return parts;
    const eol = text.indexOf("\n", after);
    if (eol < 0) return parts;
    start = eol + 1;
    pos = start;
  }
  return parts;
}

const lines = (b: Buffer) => {
  let n = 0;
  for (const c of b) if (c === 0x0a) n++;
  return n + (b.length > 0 && b[b.length - 1] !== 0x0a ? 1 : 0);
};

const nstring = (v: string | null) => quote(v);
const plist = (params: Array<[string, string]>) =>
  params.length ? `(${params.map(([k, v]) => `${quote(k)} ${quote(v)}`).join(" ")})` : "NIL";

/** An address list header as IMAP's `((name adl mailbox host) ...)`, or NIL. */
export function addressList(value: string | null): string {
  if (!value) return "NIL";
  const out: string[] = [];
  for (const item of splitAddresses(value)) {
    const m = /^(.*?)<([^>]*)>\s*$/.exec(item);
    let name: string | null = null;
    let addr = item.trim();
    if (m) {
      name = (m[1] as string).trim().replace(/^"(.*)"$/, "$1") || null;
      addr = (m[2] as string).trim();
    }
    const at = addr.lastIndexOf("@");
    const [mailbox, host] = at > 0 ? [addr.slice(0, at), addr.slice(at + 1)] : [addr, ""];
    if (!mailbox) continue;
    out.push(`(${nstring(name)} NIL ${quote(mailbox)} ${quote(host)})`);
  }
  return out.length ? `(${out.join("")})` : "NIL";
}

function splitAddresses(value: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let angle = 0;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "<") angle++;
    else if (!quoted && ch === ">") angle = Math.max(0, angle - 1);
    if (ch === "," && !quoted && angle === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/** RFC 3501 ENVELOPE of a message's headers. */
export function envelope(part: MimePart): string {
  const h = (n: string) => headerValue(part.headers, n);
  const from = addressList(h("from"));
  const sender = h("sender") ? addressList(h("sender")) : from;
  const replyTo = h("reply-to") ? addressList(h("reply-to")) : from;
  return `(${[
    nstring(h("date")),
    nstring(h("subject")),
    from,
    sender,
    replyTo,
    addressList(h("to")),
    addressList(h("cc")),
    addressList(h("bcc")),
    nstring(h("in-reply-to")),
    nstring(h("message-id")),
  ].join(" ")})`;
}

function disposition(part: MimePart): string {
  const v = headerValue(part.headers, "content-disposition");
  if (!v) return "NIL";
  const [kind = "", ...rest] = splitParams(v);
  return `(${quote(kind.toLowerCase())} ${plist(paramsOf(rest))})`;
}

/** RFC 3501 BODYSTRUCTURE (with extension data), or BODY without it. */
export function bodyStructure(part: MimePart, extended = true): string {
  if (part.type === "multipart") {
    const children = part.children.length
      ? part.children.map((c) => bodyStructure(c, extended)).join("")
      : bodyStructure(parseMime(Buffer.from("\r\n")), extended);
    const ext = extended ? ` ${plist(part.params)} ${disposition(part)} NIL NIL` : "";
    return `(${children} ${quote(part.subtype)}${ext})`;
  }
  const h = (n: string) => headerValue(part.headers, n);
  const encoding = (h("content-transfer-encoding") ?? "7bit").toLowerCase();
  const fields = [
    quote(part.type),
    quote(part.subtype),
    plist(part.params),
    nstring(h("content-id")),
    nstring(h("content-description")),
    quote(encoding),
    String(part.body.length),
  ];
  if (part.type === "message" && part.subtype === "rfc822" && part.message) {
    fields.push(envelope(part.message), bodyStructure(part.message, extended), String(lines(part.body)));
  } else if (part.type === "text") fields.push(String(lines(part.body)));
  if (extended) fields.push(nstring(h("content-md5")), disposition(part), nstring(h("content-language")), nstring(h("content-location")));
  return `(${fields.join(" ")})`;
}

/** The bytes of `BODY[section]` (section as written between the brackets), or an empty buffer when the part is absent. */
export function sectionBytes(root: MimePart, section: string): Buffer {
  const m = /^((?:\d+\.)*\d+)?\.?(HEADER\.FIELDS\.NOT|HEADER\.FIELDS|HEADER|TEXT|MIME)?(?:\s+\((.*)\))?$/i.exec(section.trim());
  if (!m) throw new ImapSyntaxError("bad section");
  const path = m[1] ? m[1].split(".").map(Number) : [];
  const kind = m[2]?.toUpperCase();
  if ((kind === "HEADER.FIELDS" || kind === "HEADER.FIELDS.NOT") !== (m[3] !== undefined)) throw new ImapSyntaxError("bad section");
  if (kind === "MIME" && path.length === 0) throw new ImapSyntaxError("MIME needs a part number");
  let part: MimePart | undefined = root;
  for (const n of path) {
    if (!part) break;
    if (part.type === "message" && part.message && part !== root) part = part.message;
    if (part.type === "multipart") part = part.children[n - 1];
    else if (n !== 1) part = undefined;
  }
  if (!part) return Buffer.alloc(0);
  if (!kind) return path.length === 0 ? part.raw : part.body;
  if (kind === "MIME") return part.header;
  // HEADER and TEXT of a nested part address its message/rfc822 message
  const msg = path.length > 0 && part.message ? part.message : part;
  if (kind === "TEXT") return msg.body;
  if (kind === "HEADER") return msg.header;
  const names = new Set(
    (m[3] as string)
      .split(/\s+/)
      .map((n) => n.replace(/^"|"$/g, "").toLowerCase())
      .filter(Boolean),
  );
  const not = kind === "HEADER.FIELDS.NOT";
  const kept: string[] = [];
  let keep = false;
  for (const line of msg.header.toString("latin1").split(/(?<=\n)/)) {
    if (line === "\r\n" || line === "\n") break;
    if (!/^[ \t]/.test(line)) {
      const name = line.slice(0, line.indexOf(":")).trim().toLowerCase();
      keep = names.has(name) !== not;
    }
    if (keep) kept.push(line);
  }
  return Buffer.from(`${kept.join("")}\r\n`, "latin1");
}
