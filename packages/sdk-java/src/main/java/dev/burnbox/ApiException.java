package dev.burnbox;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * BurnBox answered with a status other than 2xx. {@link #code()} is the error envelope's {@code code}
 * ({@code validation_error}, {@code unauthenticated}, {@code forbidden}, {@code not_found},
 * {@code conflict}, {@code rate_limited}, ...), so a test can tell a missing inbox from a bad key.
 */
public class ApiException extends BurnBoxException {
  private static final long serialVersionUID = 1L;

  private static final Map<Integer, String> FALLBACK_CODES =
      Map.of(
          400, "validation_error",
          401, "unauthenticated",
          403, "forbidden",
          404, "not_found",
          409, "conflict",
          429, "rate_limited");

  private final int status;
  private final String code;
  private final String body;
  private final Duration retryAfter;

  public ApiException(int status, String code, String message, String body, Duration retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfter = retryAfter;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The envelope's {@code code}; from the status when the body had none ({@code 404} gives {@code not_found}). */
  public String code() {
    return code;
  }

  /** The body as received (the error envelope's JSON, or text). */
  public String body() {
    return body;
  }

  /** How long to wait before trying again, on a 429. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The code a status stands for when the body named none. */
  static String fallbackCode(int status) {
    String known = FALLBACK_CODES.get(status);
    if (known != null) return known;
    return status >= 500 ? "internal_error" : "http_" + status;
  }

  @Override
  public String toString() {
    return "ApiException{status=" + status + ", code=" + code + ", message=" + getMessage() + "}";
  }
}
