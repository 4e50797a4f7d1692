import http from "node:http";
import https from "node:https";
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

/** A header value rspamd is given: no line breaks (a HELO is the client's text). */
const headerValue = (v: string): string => v.replace(/[\r\n]+/g, " ").slice(0, 998);

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

/**
 * The spam scorer on rspamd's HTTP protocol: `POST <url>/checkv2` with the message as the body and
 * the envelope in rspamd's headers (`IP`, `Helo`, `From`, one `Rcpt` per recipient). One request
 * per message, aborted at `spam.timeout` (a new connection each time: rspamd's HTTP server answers
 * every request with `Connection: close`, fixed in its code, so the agent's keep-alive never reuses
 * one); any failure (refused, reset, a 5xx, an answer that is not a verdict) is `unavailable`,
 * logged, and the email is stored all the same. The URL is the operator's own (an internal service), not a user's destination, so it
 * does not go through the outbound guard (spec 6.4), as PostgreSQL and NATS do not.
 */
export function rspamdScorer(settings: RspamdSettings, logger: Logger): SpamScorer {
  if (!settings.url) return spamScoringOff;
  const target = new URL("checkv2", settings.url.endsWith("/") ? settings.url : `${settings.url}/`);
  const secure = target.protocol === "https:";
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const send = secure ? https.request : http.request;
  let failing = false;
  const failed = (why: string, err?: unknown) => {
    // one warning when rspamd goes away, not one per message
    if (!failing) logger.warn({ err, url: target.origin }, `spam scoring unavailable: ${why}; emails are stored without a score`);
    failing = true;
    return UNAVAILABLE;
  };
  return {
    score: (raw: Buffer, origin: SpamOrigin): Promise<SpamResult> =>
      new Promise<SpamResult>((resolve) => {
        const headers: http.OutgoingHttpHeaders = {
          "content-length": raw.length,
          ip: clientAddress(origin.ip),
          ...(origin.helo ? { helo: headerValue(origin.helo) } : {}),
          ...(origin.sender ? { from: headerValue(origin.sender) } : {}),
          ...(origin.recipients.length ? { rcpt: origin.recipients.map(headerValue) } : {}),
        };
        const req = send(target, { method: "POST", agent, headers });
        const timer = setTimeout(() => {
          req.destroy();
          resolve(failed(`no answer within ${settings.timeoutMs} ms`));
        }, settings.timeoutMs);
        const done = (r: SpamResult) => {
          clearTimeout(timer);
          resolve(r);
        };
        req.on("error", (err) => done(failed("request failed", err)));
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) res.destroy(new Error("answer too large"));
            else chunks.push(c);
          });
          res.on("error", (err) => done(failed("answer broken off", err)));
          res.on("end", () => {
            if (res.statusCode !== 200) return done(failed(`HTTP ${res.statusCode}`));
            let result: SpamResult | null = null;
            try {
              result = spamResultOf(JSON.parse(Buffer.concat(chunks).toString("utf8")));
            } catch {
              result = null;
            }
            if (!result) return done(failed("answer is not a verdict"));
            if (failing) logger.info({ url: target.origin }, "spam scoring available again");
            failing = false;
            done(result);
          });
        });
        req.end(raw);
      }),
  };
}
