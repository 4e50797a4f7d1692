import { z } from "./zod";

/** Wire error codes of spec 7.1 plus the few our contract notes add. Closed set. */
export const ErrorCode = {
  validation_error: "validation_error",
  unauthenticated: "unauthenticated",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
  session_limit: "session_limit",
  rate_limited: "rate_limited",
  payload_too_large: "payload_too_large",
  unsupported_media_type: "unsupported_media_type",
  locked: "locked",
  upgrade_required: "upgrade_required",
  unavailable: "unavailable",
  internal_error: "internal_error",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One exhaustive table from code to HTTP status. */
export const errorStatus: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  session_limit: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  locked: 423,
  upgrade_required: 426,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

/**
 * The `code` a client reads. Spec 7.1 names a code for its statuses; every other status
 * (413, 415, 423, 426, 503) carries the generic `error` (contract notes).
 */
export const errorWireCode: Record<ErrorCode, string> = {
  validation_error: "validation_error",
  unauthenticated: "unauthenticated",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
  session_limit: "session_limit",
  rate_limited: "rate_limited",
  internal_error: "internal_error",
  payload_too_large: "error",
  unsupported_media_type: "error",
  locked: "error",
  upgrade_required: "error",
  unavailable: "error",
};

export const ErrorEnvelope = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    error_id: z.string().optional(),
  })
  .openapi("Error");
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Spec 7.2: the 429 body is deliberately not the standard envelope. */
export const RateLimitBody = z.object({ error: z.string(), retry_after: z.number().int().min(1) }).openapi("RateLimited");
export type RateLimitBody = z.infer<typeof RateLimitBody>;
