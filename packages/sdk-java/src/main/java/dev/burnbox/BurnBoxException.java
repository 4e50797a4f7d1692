package dev.burnbox;

/**
 * What every failure of this library is: {@link ApiException} (BurnBox answered other than 2xx),
 * {@link WaitTimeoutException}, {@link NothingExtractedException}, {@link WebhookVerificationException},
 * or this class itself when BurnBox could not be reached (the I/O error is the cause).
 */
public class BurnBoxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BurnBoxException(String message) {
    super(message);
  }

  public BurnBoxException(String message, Throwable cause) {
    super(message, cause);
  }
}
