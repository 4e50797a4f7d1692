import type { WaitResponse } from "./extensions.js";

/**
 * An answer other than 2xx, in the spec's error envelope `{error, code}` (7.1). A 429 carries
 * `{error, retry_after}` instead (7.2): its `code` is `rate_limited` and `retryAfter` is set.
 */
export class BurnBoxError extends Error {
  override readonly name = "BurnBoxError";
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The envelope's `code` (`validation_error`, `unauthenticated`, `forbidden`, `not_found`, …). */
    readonly code: string,
    message: string,
    /** The parsed body as received (or the text when it was not JSON). */
    readonly body: unknown,
    /** Seconds to wait before trying again (429 only). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const FALLBACK_CODES: Record<number, string> = {
  400: "validation_error",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
};

/** The error for a non-2xx answer whose body is `body` (parsed JSON, text, or undefined). */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): BurnBoxError {
  const o = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const code = typeof o.code === "string" ? o.code : (FALLBACK_CODES[status] ?? (status >= 500 ? "internal_error" : `http_${status}`));
  const message =
    typeof o.error === "string" ? o.error : typeof body === "string" && body.length > 0 ? body.slice(0, 200) : `HTTP ${status}`;
  let retryAfter: number | undefined;
  if (status === 429) {
    const fromBody = typeof o.retry_after === "number" ? o.retry_after : undefined;
    const fromHeader = Number(headers?.get("retry-after"));
    retryAfter = fromBody ?? (Number.isFinite(fromHeader) && fromHeader > 0 ? fromHeader : undefined);
  }
  return new BurnBoxError(status, code, message, body, retryAfter);
}

/** `waitForEmail` (and the helpers on it) when fewer than `count` emails matched within the timeout. */
export class WaitTimeoutError extends Error {
  override readonly name = "WaitTimeoutError";
  constructor(
    /** The wait's answer: `timed_out: true`, `data` what did match, `matched` how many. */
    readonly result: WaitResponse,
  ) {
    super(`timed out waiting for email: ${result.matched} matched`);
  }
}

/** verifyWebhook refused a delivery; `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: "missing_signature" | "malformed_signature" | "bad_signature" | "malformed_body" | "stale_timestamp",
    message: string,
  ) {
    super(message);
  }
}
