import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { ErrorCode } from "@burnbox/contracts";
import { runWithContext } from "./context";
import { AppError, errors } from "./errors";
import type { Logger } from "./logger";
import type { Metrics } from "./metrics";

export const JSON_BODY_LIMIT = "1mb";
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  next();
}

/** Reuses a well-formed incoming X-Request-ID (the gateway's), else makes one; every log line carries it. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header("x-request-id");
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-ID", id);
  const traceparent = req.header("traceparent");
  const traceId = traceparent?.split("-")[1];
  runWithContext({ request_id: id, ...(traceId ? { trace_id: traceId } : {}) }, next);
}

export interface HttpAppOptions {
  logger: Logger;
  metrics?: Metrics;
  /** Extra middleware run before the JSON parser (e.g. the gateway's proxy). */
  beforeBody?: (app: Express) => void;
}

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requestContext);
  app.use(securityHeaders);
  if (opts.metrics) app.use(opts.metrics.httpMiddleware);
  opts.beforeBody?.(app);
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

export function sendError(res: Response, err: unknown, logger: Logger, req?: Request): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const app = toAppError(err);
  if (app) {
    for (const [k, v] of Object.entries(app.extra.headers ?? {})) res.setHeader(k, v);
    res.status(app.status).json({
      error: app.message,
      code: app.wireCode,
      ...(app.extra.details ? { details: app.extra.details } : {}),
      ...(app.extra.body ?? {}),
    });
    return;
  }
  const errorId = randomUUID();
  logger.error({ err, error_id: errorId, method: req?.method, path: req?.path }, "unhandled error");
  res.status(500).json({ error: "internal server error", code: ErrorCode.internal_error, error_id: errorId });
}

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === "entity.too.large") return new AppError(ErrorCode.payload_too_large, "request body too large");
  if (e?.type === "entity.parse.failed") return errors.validation("malformed JSON body");
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") return errors.validation("unsupported body encoding");
  return null;
}

function issuesToDetails(error: z.ZodError) {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    const details = issuesToDetails(r.error);
    const first = details[0];
    throw errors.validation(first ? `${where}${first.path ? ` ${first.path}` : ""}: ${first.message}` : "validation error", details);
  }
  return r.data;
}

export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseWith(schema, req.body ?? {}, "body");
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseWith(schema, req.query, "query");
export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseWith(schema, req.params, "path");

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export function listen(app: Express | ((req: never, res: never) => void), port: number, host = "0.0.0.0"): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = (app as Express).listen(port, host);
    server.once("error", reject);
    server.once("listening", () => {
      server.keepAliveTimeout = 65_000;
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 5000).unref();
          }),
      });
    });
  });
}
