import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { ErrorCode } from "@burnbox/contracts";
import { currentContext, runWithContext } from "../core/context";
import { closeGracefully, trackInFlight } from "../core/drain";
import { AppError, errors } from "../core/errors";
import type { Logger } from "../core/logger";
import type { Metrics } from "../core/metrics";

export const JSON_BODY_LIMIT = "1mb";
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * A request as the kit's first middleware and error writer see it: express's, or node's own when a
 * service answers some requests without express (the gateway's forwarded routes).
 */
export type HttpRequest = IncomingMessage & { originalUrl?: string };

/** One request header's value (the first, if sent more than once), like express's `req.header`. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The request's path without its query, as the client sent it (also inside a mounted router). */
export function requestPath(req: HttpRequest): string {
  const url = req.originalUrl ?? req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/**
 * A JSON response as express's `res.status(status).json(body)` writes it (the same Content-Type,
 * Content-Length and no body for HEAD), on a plain node response too.
 */
export function writeJson(res: ServerResponse, status: number, body: unknown, req?: IncomingMessage): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  if ((req ?? (res as ServerResponse & { req?: IncomingMessage }).req)?.method === "HEAD") res.end();
  else res.end(text, "utf8");
}

export function securityHeaders(_req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  next();
}

/** Reuses a well-formed incoming X-Request-ID (the gateway's), else makes one; every log line carries it. */
export function requestContext(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
  const incoming = headerOf(req, "x-request-id");
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-ID", id);
  const traceparent = headerOf(req, "traceparent");
  const traceId = traceparent?.split("-")[1];
  runWithContext({ request_id: id, ...(traceId ? { trace_id: traceId } : {}) }, next);
}

const hasBody = (req: Request) => req.header("transfer-encoding") !== undefined || Number(req.header("content-length") ?? 0) > 0;

/** Every API route speaks JSON: a body of any other type is refused (415) before it is read. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is(["application/json", "application/*+json"])) {
    next(new AppError(ErrorCode.unsupported_media_type, "request body must be JSON (Content-Type: application/json)"));
    return;
  }
  next();
}

/** The matched route's pattern (never the raw URL: no ids, no query strings), or `unmatched`. */
export function routePattern(req: IncomingMessage): string {
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  const route = r.route?.path;
  return typeof route === "string" ? `${r.baseUrl ?? ""}${route}` : "unmatched";
}

const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * One line per request when its response is finished (or the client went away): method, route
 * pattern, status, duration and (from the context) request id. Never bodies, headers or query
 * strings. Probes log at debug level so they do not drown the rest.
 */
export function accessLog(logger: Logger) {
  return (req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // taken now: a `close` after the client went away may fire outside the request's context
    const requestId = currentContext().request_id;
    let done = false;
    const log = () => {
      if (done) return;
      done = true;
      const line = {
        request_id: requestId,
        method: req.method,
        route: routePattern(req),
        status: res.writableFinished ? res.statusCode : 499,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
      };
      if (PROBES.has(requestPath(req))) logger.debug(line, "request");
      else logger.info(line, "request");
    };
    res.once("finish", log);
    res.once("close", log);
    next();
  };
}

const noop = () => undefined;

/**
 * What every request gets before anything else, in this order: its request id and log context,
 * its access-log line, the security headers and its duration metric. None of them refuses a
 * request. One function, so that a path outside express (the gateway's forwarded routes) gets
 * exactly what express's first layers give the rest.
 */
export function requestFrame(opts: Pick<HttpAppOptions, "logger" | "metrics" | "accessLog">) {
  const log = opts.accessLog !== false ? accessLog(opts.logger) : null;
  const timed = opts.metrics?.httpMiddleware;
  return (req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    requestContext(req, res, () => {
      log?.(req, res, noop);
      securityHeaders(req, res, noop);
      timed?.(req, res, noop);
      next();
    });
  };
}

export interface HttpAppOptions {
  logger: Logger;
  metrics?: Metrics;
  /** One log line per request (on unless false). */
  accessLog?: boolean;
  /** Extra middleware run before the JSON parser (e.g. the gateway's proxy). */
  beforeBody?: (app: Express) => void;
}

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requestFrame(opts));
  opts.beforeBody?.(app);
  app.use(requireJsonBody);
  app.use(express.json({ limit: JSON_BODY_LIMIT }));
  return app;
}

/** Call after all routes: unknown routes and every error leave in the spec's envelope. */
export function finalizeHttpApp(app: Express, logger: Logger): void {
  app.use((_req: Request, _res: Response, next: NextFunction) => next(errors.notFound("route")));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(res, err, logger, req);
  });
}

export function sendError(res: ServerResponse, err: unknown, logger: Logger, req?: HttpRequest): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const app = toAppError(err);
  if (app) {
    for (const [k, v] of Object.entries(app.extra.headers ?? {})) res.setHeader(k, v);
    writeJson(
      res,
      app.status,
      {
        error: app.message,
        code: app.wireCode,
        ...(app.extra.details ? { details: app.extra.details } : {}),
        ...(app.extra.body ?? {}),
      },
      req,
    );
    return;
  }
  const errorId = randomUUID();
  logger.error({ err, error_id: errorId, method: req?.method, path: req ? requestPath(req) : undefined }, "unhandled error");
  writeJson(res, 500, { error: "internal server error", code: ErrorCode.internal_error, error_id: errorId }, req);
}

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number } | null;
  if (e?.type === "entity.too.large") return new AppError(ErrorCode.payload_too_large, "request body too large");
  if (e?.type === "entity.parse.failed") return errors.validation("malformed JSON body");
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") return errors.validation("unsupported body encoding");
  // the router refuses a path whose parameters do not percent-decode (URIError, status 400)
  if (err instanceof URIError || e?.status === 400 || e?.statusCode === 400) return errors.validation("malformed percent-escape in path");
  return null;
}

function issuesToDetails(error: z.ZodError) {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

// A NUL, or a UTF-16 surrogate without its pair: Postgres cannot store either in text.
// eslint-disable-next-line no-control-regex -- matching the NUL control character is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string (or key) in `value` that holds a NUL or an unpaired surrogate. */
export function findUnstorableString(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : null;
  if (value === null || typeof value !== "object" || depth > 64) return null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (UNSTORABLE.test(k)) return [...path, k];
    const found = findUnstorableString(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/** `page[]=1` or `page[x]=1` is an array (or object) where a scalar may be expected: fold it onto `page`. */
function foldBracketKeys(query: unknown): unknown {
  if (query === null || typeof query !== "object") return query;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    const m = /^([^[\]]+)\[[^\]]*\]/.exec(k);
    const key = m?.[1] ?? k;
    out[key] = m ? [...(Array.isArray(out[key]) ? (out[key] as unknown[]) : out[key] === undefined ? [] : [out[key]]), v].flat() : v;
  }
  return out;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const bad = findUnstorableString(value);
  if (bad) {
    const path = bad.join(".");
    throw errors.validation(`${where}${path ? ` ${path}` : ""}: must not contain NUL characters or unpaired surrogates`, [
      { path, message: "must not contain NUL characters or unpaired surrogates" },
    ]);
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const details = issuesToDetails(r.error);
    const first = details[0];
    throw errors.validation(first ? `${where}${first.path ? ` ${first.path}` : ""}: ${first.message}` : "validation error", details);
  }
  return r.data;
}

export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseWith(schema, req.body ?? {}, "body");
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseQueryValue(schema, req.query);
export const parseQueryValue = <S extends z.ZodType>(schema: S, query: unknown): z.output<S> =>
  parseWith(schema, foldBracketKeys(query), "query");
export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseWith(schema, req.params, "path");

/**
 * Requests Node refuses before any handler sees them (headers or URL over the size limit, bytes
 * that are not HTTP) still get the envelope, as far as the socket allows.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "request header fields too large"]
      : err.code === "HPE_URI_TOO_LONG"
        ? [414, "URI Too Long", "request URI too long"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "request timeout"]
          : [400, "Bad Request", "malformed HTTP request"];
  const body = JSON.stringify({ error: message, code: status === 400 ? ErrorCode.validation_error : "error" });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the drain timeout), then cuts the rest. */
  close(): Promise<void>;
}

/**
 * Serves `app` on `port`. `drainTimeoutMs` (the process's `shutdown.drain_timeout`) is how long
 * close() lets in-flight requests finish before it cuts their sockets.
 */
export function listen(
  app: Express | ((req: never, res: never) => void),
  port: number,
  host = "0.0.0.0",
  opts: { drainTimeoutMs?: number } = {},
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    // what express's app.listen does, for a plain request listener too
    const server = createServer(app as RequestListener);
    trackInFlight(server);
    server.listen(port, host);
    server.on("clientError", answerClientError);
    server.once("error", reject);
    server.once("listening", () => {
      server.keepAliveTimeout = 65_000;
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () => closeGracefully(server, opts.drainTimeoutMs ?? 5000),
      });
    });
  });
}
