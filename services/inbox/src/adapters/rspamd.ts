import net from "node:net";
import tls from "node:tls";
import { SPAM_ACTIONS, type SpamAction, type SpamResult, type SpamSymbol } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import { spamScoringOff, type SpamOrigin, type SpamScorer } from "../domain/emails/spam/spam-scorer";

export interface RspamdSettings {
  /** `spam.rspamd_url`: the scanner's base URL (its normal worker, e.g. http://rspamd:11333); null: scoring off. */
  url: string | null;
  /** `spam.timeout` in ms: the most one message waits for its score. */
  timeoutMs: number;
}

/** The most of rspamd's answer read (a verdict with a few hundred symbols is a few tens of KiB). */
const MAX_ANSWER_BYTES = 1024 * 1024;

const UNAVAILABLE: SpamResult = { status: "unavailable" };

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) is `192.0.2.1`. */
const clientAddress = (ip: string): string => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/**
 * A header value rspamd is given: no line breaks nor other control characters (a HELO is the
 * client's text; a NUL or CR in the request head would end or split it).
 */
const headerValue = (v: string): string => v.replace(/[^\t -~\u0080-\uffff]+/g, " ").slice(0, 998);

const isAction = (a: unknown): a is SpamAction => typeof a === "string" && (SPAM_ACTIONS as readonly string[]).includes(a);

/**
 * rspamd's `/checkv2` answer as the API shows it: the score, the required score, the action and
 * every symbol (by name, highest score first); null when it is not such an answer.
 */
export function spamResultOf(body: unknown): SpamResult | null {
  if (!body || typeof body !== "object") return null;
  const b = body as { score?: unknown; required_score?: unknown; action?: unknown; symbols?: unknown };
  if (typeof b.score !== "number" || typeof b.required_score !== "number" || !isAction(b.action)) return null;
  const symbols: SpamSymbol[] = [];
  if (b.symbols && typeof b.symbols === "object") {
    for (const [key, value] of Object.entries(b.symbols as Record<string, unknown>)) {
      const s = (value ?? {}) as { name?: unknown; score?: unknown; description?: unknown };
      symbols.push({
        name: typeof s.name === "string" ? s.name : key,
        score: typeof s.score === "number" ? s.score : 0,
        ...(typeof s.description === "string" ? { description: s.description } : {}),
      });
    }
  }
  symbols.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : 1));
  return { status: "scored", score: b.score, required_score: b.required_score, action: b.action, symbols };
}

/** An HTTP answer read whole: its status code and its body. */
export interface HttpAnswer {
  status: number;
  body: Buffer;
}

const HEAD_END = Buffer.from("\r\n\r\n");
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/;

/**
 * The answer to an HTTP/1.0 request, from the bytes read so far (`ended`: the server has closed
 * the connection): the answer once it is all there, "more" while it is not, "invalid" when it
 * cannot be one. The body is `Content-Length` bytes, or everything up to the close without one;
 * a chunked body is refused (a server does not send one to an HTTP/1.0 request), as is a
 * `Content-Length` that is not one number or a close before the body's end.
 */
export function httpAnswerOf(bytes: Buffer, ended: boolean): HttpAnswer | "more" | "invalid" {
  const headEnd = bytes.indexOf(HEAD_END);
  if (headEnd < 0) return ended ? "invalid" : "more";
  const [statusLine, ...fields] = bytes.toString("latin1", 0, headEnd).split("\r\n");
  const status = STATUS_LINE.exec(statusLine!);
  if (!status) return "invalid";
  let length: number | null = null;
  for (const field of fields) {
    const colon = field.indexOf(":");
    if (colon <= 0) return "invalid";
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    if (name === "transfer-encoding") return "invalid";
    if (name === "content-length") {
      if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value))) return "invalid";
      length = Number(value);
    }
  }
  const bodyStart = headEnd + HEAD_END.length;
  if (length === null) return ended ? { status: Number(status[1]), body: bytes.subarray(bodyStart) } : "more";
  if (bytes.length - bodyStart < length) return ended ? "invalid" : "more";
  return { status: Number(status[1]), body: bytes.subarray(bodyStart, bodyStart + length) };
}

/** How long a connection whose answer is read whole waits for the server's close before closing it itself. */
const LINGER_MS = 1000;

/**
 * The spam scorer on rspamd's HTTP protocol: `POST <url>/checkv2` with the message as the body and
 * the envelope in rspamd's headers (`IP`, `Helo`, `From`, one `Rcpt` per recipient). One request
 * per message on a connection of its own, aborted at `spam.timeout`; any failure (refused, reset,
 * a 5xx, an answer that is not a verdict) is `unavailable`, logged once per outage, and the email
 * is stored all the same. The URL is the operator's own (an internal service), not a user's
 * destination, so it does not go through the outbound guard (spec 6.4), as PostgreSQL and NATS do
 * not.
 *
 * A plain socket and not `http.request`: rspamd's HTTP server answers every request with
 * `Connection: close` (fixed in its code), so no connection is ever reused, and Node's HTTP client
 * (its agent, its request and response streams, its parser) cost the intake more CPU per score
 * than the one write and one read a score needs (bench `spam-client`). The request is HTTP/1.0,
 * head and body in one write; the answer is read until its `Content-Length` (rspamd sends it,
 * and no chunked body to a 1.0 request), bounded by MAX_ANSWER_BYTES. The socket then waits for
 * rspamd's close, so that TIME_WAIT stays on rspamd's side and the intake does not run out of
 * ephemeral ports under load.
 */
export function rspamdScorer(settings: RspamdSettings, logger: Logger): SpamScorer {
  if (!settings.url) return spamScoringOff;
  const target = new URL("checkv2", settings.url.endsWith("/") ? settings.url : `${settings.url}/`);
  const secure = target.protocol === "https:";
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(target.port || (secure ? 443 : 80));
  const requestLine = `POST ${target.pathname}${target.search} HTTP/1.0\r\nHost: ${target.host}\r\n`;
  const connect = (): net.Socket =>
    secure ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }) }) : net.connect({ host, port, noDelay: true });
  let failing = false;
  const failed = (why: string, err?: unknown) => {
    // one warning when rspamd goes away, not one per message
    if (!failing) logger.warn({ err, url: target.origin }, `spam scoring unavailable: ${why}; emails are stored without a score`);
    failing = true;
    return UNAVAILABLE;
  };
  const verdict = (answer: HttpAnswer): SpamResult => {
    if (answer.status !== 200) return failed(`HTTP ${answer.status}`);
    let result: SpamResult | null = null;
    try {
      result = spamResultOf(JSON.parse(answer.body.toString("utf8")));
    } catch {
      result = null;
    }
    if (!result) return failed("answer is not a verdict");
    if (failing) logger.info({ url: target.origin }, "spam scoring available again");
    failing = false;
    return result;
  };
  return {
    score: (raw: Buffer, origin: SpamOrigin): Promise<SpamResult> =>
      new Promise<SpamResult>((resolve) => {
        let head = `${requestLine}Content-Length: ${raw.length}\r\nIP: ${clientAddress(origin.ip)}\r\n`;
        if (origin.helo) head += `Helo: ${headerValue(origin.helo)}\r\n`;
        if (origin.sender) head += `From: ${headerValue(origin.sender)}\r\n`;
        for (const r of origin.recipients) head += `Rcpt: ${headerValue(r)}\r\n`;
        let settled = false;
        const settle = (r: SpamResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(r);
        };
        const socket = connect();
        const timer = setTimeout(() => {
          socket.destroy();
          settle(failed(`no answer within ${settings.timeoutMs} ms`));
        }, settings.timeoutMs);
        let read: Buffer = Buffer.alloc(0);
        const answered = (ended: boolean) => {
          const answer = httpAnswerOf(read, ended);
          if (answer === "more") return;
          if (answer === "invalid") {
            socket.destroy();
            settle(failed(ended ? "answer broken off" : "answer is not HTTP"));
            return;
          }
          settle(verdict(answer));
          // read whole: rspamd closes next; the linger closes a server that does not
          if (!ended) socket.setTimeout(LINGER_MS, () => socket.destroy());
        };
        socket.on("data", (chunk: Buffer) => {
          if (settled) return;
          if (read.length + chunk.length > MAX_ANSWER_BYTES) {
            socket.destroy();
            settle(failed("answer too large"));
            return;
          }
          read = read.length ? Buffer.concat([read, chunk]) : chunk;
          answered(false);
        });
        socket.on("end", () => {
          if (!settled) answered(true);
        });
        socket.on("error", (err) => {
          if (!settled) settle(failed("request failed", err));
        });
        socket.on("close", () => {
          if (!settled) settle(failed("answer broken off"));
        });
        // the head and the body go out in one writev once connected
        socket.cork();
        socket.write(`${head}\r\n`, "utf8");
        socket.write(raw);
        socket.uncork();
      }),
  };
}
