import { ErrorCode, errorStatus, errorWireCode } from "@burnbox/contracts";

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The one error type domain code throws. `code` picks the HTTP status through the contracts'
 * exhaustive table; `message` is what the client reads, so it never carries internals.
 */
export class AppError extends Error {
  readonly status: number;
  /** The code on the wire (spec 7.1, or `error` for statuses it does not name). */
  readonly wireCode: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: ErrorDetail[]; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = errorStatus[code];
    this.wireCode = errorWireCode[code];
  }
}

export const errors = {
  validation: (message = "validation error", details?: ErrorDetail[]) =>
    new AppError(ErrorCode.validation_error, message, details ? { details } : {}),
  unauthenticated: (message = "authentication required") => new AppError(ErrorCode.unauthenticated, message),
  forbidden: (message = "forbidden") => new AppError(ErrorCode.forbidden, message),
  notFound: (what = "resource") => new AppError(ErrorCode.not_found, `${what} not found`),
  conflict: (message: string) => new AppError(ErrorCode.conflict, message),
  unavailable: (message = "service unavailable") => new AppError(ErrorCode.unavailable, message),
};

/** Transient failures a consumer should retry later (nak with delay) rather than dead-letter. */
export class TransientError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs = 5000,
  ) {
    super(message);
    this.name = "TransientError";
  }
}
