package dev.burnbox;

/** The mail came, but holds no one-time code (or no link of the kind asked for); {@link #email()} is that mail. */
public class NothingExtractedException extends BurnBoxException {
  private static final long serialVersionUID = 1L;

  private final transient EmailSummary email;

  public NothingExtractedException(String message, EmailSummary email) {
    super(message);
    this.email = email;
  }

  public EmailSummary email() {
    return email;
  }
}
