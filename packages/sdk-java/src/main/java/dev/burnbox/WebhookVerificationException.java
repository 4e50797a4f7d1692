package dev.burnbox;

/** {@link Webhooks#verify} refused a delivery; {@link #reason()} says why. Answer such a request with 401. */
public class WebhookVerificationException extends BurnBoxException {
  private static final long serialVersionUID = 1L;

  /** Why a delivery was refused. */
  public enum Reason {
    /** No {@code X-Service-Signature-256} header. */
    MISSING_SIGNATURE,
    /** The header is not {@code t=<unix seconds>,v1=<64 lowercase hex>}. */
    MALFORMED_SIGNATURE,
    /** It was signed outside the tolerance of now: a replay, or a clock far off. */
    STALE_TIMESTAMP,
    /** No {@code v1} is the HMAC of the timestamp and this body under this secret. */
    BAD_SIGNATURE,
    /** Signed, but not a delivery {@code {id, event, timestamp, data}}. */
    MALFORMED_BODY
  }

  private final Reason reason;

  public WebhookVerificationException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
