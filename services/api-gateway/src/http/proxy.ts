import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import net, { type Socket } from "node:net";
import type { Request, Response } from "express";
import { errors, sendError, type Logger } from "@burnbox/service-kit";

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

export class Forwarder {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Streams the request to `target` and the answer back, adding `extraHeaders` upstream. */
  forward(req: Request, res: Response, target: URL, extraHeaders: Record<string, string>): Promise<void> {
    return new Promise((resolve) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined || HOP_BY_HOP.has(k) || NEVER_FORWARD.has(k)) continue;
        headers[k] = v;
      }
      if (req.headers["content-length"]) headers["content-length"] = req.headers["content-length"];
      else if (req.headers["transfer-encoding"]) headers["transfer-encoding"] = req.headers["transfer-encoding"];
      Object.assign(headers, extraHeaders);
      const upstream = http.request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.originalUrl,
          headers,
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (answer: IncomingMessage) => {
          res.status(answer.statusCode ?? 502);
          copyResponseHeaders(answer.headers, res);
          // a service's own limit refused the request (spec 7.2): whatever window the gateway shows, none remains
          if (answer.statusCode === 429) res.setHeader("X-RateLimit-Remaining", "0");
          answer.pipe(res);
          answer.on("end", () => resolve());
          answer.on("error", () => resolve());
        },
      );
      upstream.on("timeout", () => upstream.destroy(new Error("upstream timeout")));
      upstream.on("error", (err) => {
        this.logger.error({ err, upstream: target.host, path: req.path }, "upstream request failed");
        if (!res.headersSent) sendError(res, errors.unavailable("upstream service unavailable"), this.logger, req);
        else res.destroy();
        resolve();
      });
      res.on("close", () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function copyResponseHeaders(from: IncomingHttpHeaders, res: Response): void {
  for (const [k, v] of Object.entries(from)) {
    if (v === undefined || (HOP_BY_HOP.has(k) && k !== "content-length")) continue;
    // The gateway's request id and rate-limit headers are the ones the client sees.
    if (k === "x-request-id" || k.startsWith("x-ratelimit-")) continue;
    res.setHeader(k, v);
  }
}

/** Pipes a WebSocket upgrade to realtime-gateway unchanged, so one local port serves REST and WebSocket. */
export function proxyUpgrade(req: IncomingMessage, url: string, socket: Socket, head: Buffer, target: URL, logger: Logger): void {
  const upstream = net.connect(Number(target.port || 80), target.hostname, () => {
    const lines = [`${req.method ?? "GET"} ${url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] as string;
      if (NEVER_FORWARD.has(name.toLowerCase())) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ""}`);
    }
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  const fail = (err: Error) => {
    logger.warn({ err: { message: err.message } }, "websocket proxy connection failed");
    if (socket.writable && !upstream.readableDidRead) {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"upstream service unavailable","code":"error"}',
      );
    } else socket.destroy();
    upstream.destroy();
  };
  upstream.on("error", fail);
  socket.on("error", () => upstream.destroy());
  socket.on("close", () => upstream.destroy());
}
