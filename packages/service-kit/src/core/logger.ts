import pino, { type DestinationStream, type Logger } from "pino";
import { currentContext } from "./context";
import { activeTraceId } from "../telemetry";

/** The request's context fields, and the trace id of the active span when one is recording. */
function logContext(): Record<string, unknown> {
  const ctx = currentContext();
  const traceId = activeTraceId();
  return traceId ? { ...ctx, trace_id: traceId } : { ...ctx };
}

export type { Logger };

/** Paths that never reach a log line, whatever code logs them. */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "current_password",
  "*.current_password",
  "new_password",
  "*.new_password",
  "token",
  "*.token",
  "*.*.token",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "pending_token",
  "*.pending_token",
  "secret",
  "*.secret",
  "raw_key",
  "*.raw_key",
  "key_hash",
  "*.key_hash",
  "password_hash",
  "*.password_hash",
  "authorization",
  "*.authorization",
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-bb-internal-context"]',
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
];

export function createLogger(opts: { service: string; level: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: opts.level,
      base: { service: opts.service },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: logContext,
      serializers: { err: pino.stdSerializers.err },
    },
    opts.destination,
  );
}
