import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import net, { type Socket } from "node:net";
import { requestPath, sendError, type HttpRequest } from "@burnbox/service-kit/http";
import { errors, type Logger } from "@burnbox/service-kit/runtime";
import { mayTryNext, type UpstreamPool } from "./upstreams";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
]);

/** Headers a client may not pass through: credentials stay at the gateway, the internal context is ours to sign. */
const NEVER_FORWARD = new Set(["authorization", "x-bb-internal-context", "x-forwarded-for", "x-real-ip", "forwarded"]);

/** A forwarded long poll still waiting for its answer: asked again to answer now when the gateway drains. */
interface HeldLongPoll {
  answerNow(): void;
}

/**
 * `path` with its `timeout` query parameter set to `0` (added when absent), every other byte as it
 * came: a long poll asked this way answers at once with what it holds (extensions section 1).
 */
export function answerNowPath(path: string): string {
  const q = path.indexOf("?");
  if (q < 0) return `${path}?timeout=0`;
  const params = path
    .slice(q + 1)
    .split("&")
    .filter((p) => {
      const name = p.split("=", 1)[0] ?? "";
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // not percent-decodable: not ours to touch
      }
      return decoded !== "timeout";
    });
  return `${path.slice(0, q)}?${[...params.filter((p) => p !== ""), "timeout=0"].join("&")}`;
}

export class Forwarder {
  /**
   * Keep-alive agents per upstream replica (keyed by origin), so each keeps its own connections:
   * one for ordinary requests (at most 256 connections), one for long polls. A held wait keeps its
   * connection for as long as it lasts (up to 120 s): under the ordinary cap the 257th held wait,
   * and every ordinary request to that replica after it, queued here until a wait ended (`bench
   * wait`: of 1,000 waits 256 reached the inbox service). Long polls have no cap of their own: the
   * inbox service caps them (100 per user, 429 beyond), the rate limit counts each.
   */
  private readonly agents = new Map<string, http.Agent>();
  /** What a request to each replica's URL needs, worked out once per URL (pools hand out the same objects). */
  private readonly targets = new WeakMap<
    URL,
    { protocol: string; hostname: string; port: string; agent: http.Agent; longPolls: http.Agent }
  >();

  /** Long polls forwarded and not answered yet (their upstream has sent no response head). */
  private readonly longPolls = new Set<HeldLongPoll>();
  private draining = false;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /**
   * The gateway drains (`shutdown.drain_delay` has passed): a forwarded long poll may last longer
   * than `shutdown.drain_timeout`, so rather than let the close cut it, each one still waiting is
   * asked again of the same replica with `timeout=0`, which answers at once with what it holds
   * (a wait: what matched so far, `timed_out` when fewer than `count`), as the inbox service's own
   * drain does. A long poll that comes in from now on is sent that way from the start.
   */
  drainLongPolls(): void {
    this.draining = true;
    const held = [...this.longPolls];
    if (held.length > 0) this.logger.info({ long_polls: held.length }, "draining: forwarded long polls asked to answer now");
    for (const poll of held) poll.answerNow();
  }

  private agentFor(target: URL, longPolls: boolean): http.Agent {
    const key = longPolls ? `${target.origin} long polls` : target.origin;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, maxSockets: longPolls ? Infinity : 256 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  private targetOf(url: URL) {
    let target = this.targets.get(url);
    if (!target) {
      target = {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        agent: this.agentFor(url, false),
        longPolls: this.agentFor(url, true),
      };
      this.targets.set(url, target);
    }
    return target;
  }

  /**
   * Streams the request to one replica of `pool` (the next in turn) and the answer back, adding
   * `extraHeaders` upstream. A replica that refuses the connection is skipped for the next one;
   * the body is only read once a connection stands, so a skipped attempt sent nothing. A long
   * poll (`holdsUpToMs`: a wait may answer that late) gets that much longer than `services.timeout_ms`.
   * `beforeAnswer` runs once the answer (or the failure) is known, before anything of it is sent.
   */
  async forward(
    req: HttpRequest,
    res: ServerResponse,
    pool: UpstreamPool,
    extraHeaders: Record<string, string>,
    holdsUpToMs = 0,
    beforeAnswer: () => void = noop,
  ): Promise<void> {
    const headers: http.OutgoingHttpHeaders = {};
    const incoming = req.headers;
    for (const k in incoming) {
      const v = incoming[k];
      if (v === undefined || HOP_BY_HOP.has(k) || NEVER_FORWARD.has(k)) continue;
      headers[k] = v;
    }
    if (req.headers["content-length"]) headers["content-length"] = req.headers["content-length"];
    else if (req.headers["transfer-encoding"]) headers["transfer-encoding"] = req.headers["transfer-encoding"];
    Object.assign(headers, extraHeaders);
    // a long poll without a body can be asked again; one that comes in while draining answers now
    const longPoll = holdsUpToMs > 0 && !hasBody(req);
    const path = longPoll && this.draining ? answerNowPath(req.originalUrl ?? req.url ?? "/") : (req.originalUrl ?? req.url ?? "/");
    const order = pool.attemptOrder();
    for (const [i, target] of order.entries()) {
      const mayRetry = i < order.length - 1;
      const outcome = await this.attempt(req, res, target, headers, mayRetry, this.timeoutMs + holdsUpToMs, path, longPoll, beforeAnswer);
      if (outcome === "done" || res.destroyed) return;
      this.logger.warn({ upstream: target.host, path: requestPath(req) }, "upstream refused the connection: trying the next replica");
    }
  }

  /**
   * One attempt; "refused" only when the replica refused the connection, nothing was sent, and
   * another replica is left. A `longPoll` is held in `longPolls` until its answer's head arrives;
   * asked to answer now meanwhile, it is cut upstream and sent again with `timeout=0`.
   */
  private attempt(
    req: HttpRequest,
    res: ServerResponse,
    target: URL,
    headers: http.OutgoingHttpHeaders,
    mayRetry: boolean,
    timeoutMs: number,
    path: string,
    longPoll: boolean,
    beforeAnswer: () => void,
  ): Promise<"done" | "refused"> {
    return new Promise((resolve) => {
      let sent = false;
      let replaced = false;
      const { protocol, hostname, port, agent: ordinary, longPolls } = this.targetOf(target);
      const agent = longPoll ? longPolls : ordinary;
      const poll: HeldLongPoll | null = longPoll
        ? {
            answerNow: () => {
              release();
              if (replaced || res.destroyed || res.headersSent) return;
              replaced = true;
              upstream.destroy();
              res.off("close", onClose);
              void this.attempt(req, res, target, headers, false, this.timeoutMs, answerNowPath(path), false, beforeAnswer).then(resolve);
            },
          }
        : null;
      const release = () => {
        if (poll) this.longPolls.delete(poll);
      };
      const upstream = http.request(
        { protocol, hostname, port, method: req.method, path, headers, agent, timeout: timeoutMs },
        (answer: IncomingMessage) => {
          release();
          beforeAnswer();
          res.statusCode = answer.statusCode ?? 502;
          copyResponseHeaders(answer.headers, res);
          // a service's own limit refused the request (spec 7.2): whatever window the gateway shows, none remains
          if (answer.statusCode === 429) res.setHeader("X-RateLimit-Remaining", "0");
          relay(answer, res);
          answer.on("end", () => resolve("done"));
          answer.on("error", () => resolve("done"));
        },
      );
      // the body flows only once a connection stands (a reused keep-alive one at once); a request
      // without one (no Content-Length or Transfer-Encoding: most GETs) is ended without a pipe
      const send = () => {
        if (sent) return;
        sent = true;
        if (hasBody(req)) req.pipe(upstream);
        else upstream.end();
      };
      upstream.on("socket", (socket: Socket) => {
        if (socket.connecting) socket.once("connect", send);
        else send();
      });
      upstream.on("timeout", () => upstream.destroy(new Error("upstream timeout")));
      upstream.on("error", (err) => {
        release();
        if (replaced) return; // cut by answerNow: the attempt that replaced it answers
        if (mayRetry && mayTryNext(err, sent)) {
          resolve("refused");
          return;
        }
        this.logger.error({ err, upstream: target.host, path: requestPath(req) }, "upstream request failed");
        beforeAnswer();
        if (!res.headersSent) sendError(res, errors.unavailable("upstream service unavailable"), this.logger, req);
        else res.destroy();
        resolve("done");
      });
      const onClose = () => {
        release();
        if (!res.writableFinished) upstream.destroy();
      };
      res.on("close", onClose);
      if (poll) this.longPolls.add(poll);
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
  }
}

const noop = () => {};

/** Whether the request announces a body (RFC 9112 6.3: without either header it has none). */
function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0")
  );
}

/**
 * The answer's body to the client as `pipe` sends it (held while the client's buffer is full,
 * ended with the answer), without the listeners `pipe` puts on both streams for each response (3%
 * of the gateway's time on the forwarded read). A client that goes away destroys the upstream
 * request (`onClose`), which ends the answer with an error, as with `pipe`.
 */
function relay(answer: IncomingMessage, res: ServerResponse): void {
  answer.on("data", (chunk: Buffer) => {
    if (!res.write(chunk)) {
      answer.pause();
      res.once("drain", () => answer.resume());
    }
  });
  answer.on("end", () => res.end());
}

function copyResponseHeaders(from: IncomingHttpHeaders, res: ServerResponse): void {
  for (const k in from) {
    const v = from[k];
    if (v === undefined || (HOP_BY_HOP.has(k) && k !== "content-length")) continue;
    // The gateway's request id and rate-limit headers are the ones the client sees.
    if (k === "x-request-id" || k.startsWith("x-ratelimit-")) continue;
    res.setHeader(k, v);
  }
}

/**
 * Pipes a WebSocket upgrade to realtime-gateway unchanged, so one local port serves REST and
 * WebSocket. The replicas of `pool` take turns; one that refuses the connection is skipped (the
 * upgrade request is written only once a connection stands).
 */
export function proxyUpgrade(req: IncomingMessage, url: string, socket: Socket, head: Buffer, pool: UpstreamPool, logger: Logger): void {
  const order = pool.attemptOrder();
  const tryAt = (i: number) => {
    const target = order[i] as URL;
    let connected = false;
    const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
      connected = true;
      const lines = [`${req.method ?? "GET"} ${url} HTTP/1.1`];
      for (let j = 0; j < req.rawHeaders.length; j += 2) {
        const name = req.rawHeaders[j] as string;
        if (NEVER_FORWARD.has(name.toLowerCase())) continue;
        lines.push(`${name}: ${req.rawHeaders[j + 1] ?? ""}`);
      }
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const fail = (err: Error) => {
      upstream.destroy();
      if (i < order.length - 1 && socket.writable && mayTryNext(err, connected)) {
        logger.warn({ upstream: target.host }, "websocket upstream refused the connection: trying the next replica");
        socket.off("error", onClientGone);
        socket.off("close", onClientGone);
        tryAt(i + 1);
        return;
      }
      logger.warn({ err: { message: err.message } }, "websocket proxy connection failed");
      if (socket.writable && !upstream.readableDidRead) {
        socket.end(
          'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"upstream service unavailable","code":"error"}',
        );
      } else socket.destroy();
    };
    const onClientGone = () => upstream.destroy();
    upstream.on("error", fail);
    socket.on("error", onClientGone);
    socket.on("close", onClientGone);
  };
  tryAt(0);
}
