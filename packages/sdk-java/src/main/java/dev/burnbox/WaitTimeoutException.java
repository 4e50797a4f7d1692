package dev.burnbox;

/**
 * Fewer emails than asked for matched before the wait's timeout. {@link #result()} is the server's
 * answer: what did match, and how many.
 */
public class WaitTimeoutException extends BurnBoxException {
  private static final long serialVersionUID = 1L;

  private final transient WaitResult result;

  public WaitTimeoutException(WaitResult result) {
    super("timed out waiting for email: " + result.matched() + " matched");
    this.result = result;
  }

  public WaitResult result() {
    return result;
  }
}
