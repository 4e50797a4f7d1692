package dev.burnbox;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which mail a wait is for, and how long to wait: {@code Wait.matching().subject("Verify").timeout(Duration.ofSeconds(30))}.
 * Every matcher given must hold; matching is done by the server. A value is immutable: each method
 * answers a new one, so a base can be shared ({@code Wait base = Wait.matching().header("X-Test-Run", runId)}).
 *
 * <p>Mail that arrived before the call counts unless {@link #since(Instant)} or {@link #sinceEmail(String)} says otherwise.
 */
public final class Wait {
  /** The longest wait the server takes. */
  public static final Duration MAX_TIMEOUT = Duration.ofSeconds(120);
  /** The server's default when no timeout is given. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private final List<String[]> params;
  private final Duration timeout;

  private Wait(List<String[]> params, Duration timeout) {
    this.params = params;
    this.timeout = timeout;
  }

  /** A wait for any mail (the first one, within 30 s) until narrowed. */
  public static Wait matching() {
    return new Wait(List.of(), null);
  }

  private Wait with(String name, String value) {
    Objects.requireNonNull(value, name);
    List<String[]> next = new ArrayList<>(params);
    if (!name.equals("header")) next.removeIf(p -> p[0].equals(name));
    next.add(new String[] {name, value});
    return new Wait(List.copyOf(next), timeout);
  }

  /** The From address or name contains this (case-insensitive). */
  public Wait from(String substring) {
    return with("from", substring);
  }

  /** An address or name in To or Cc contains this (case-insensitive). */
  public Wait to(String substring) {
    return with("to", substring);
  }

  /** The subject contains this (case-insensitive). */
  public Wait subject(String substring) {
    return with("subject", substring);
  }

  /** The body (the text part, else the HTML part's visible text) contains this (case-insensitive). */
  public Wait body(String substring) {
    return with("body", substring);
  }

  /** The subject matches this RE2 pattern (at most 256 characters). */
  public Wait subjectMatches(String re2) {
    return with("subject_re", re2);
  }

  /** The body matches this RE2 pattern (at most 256 characters). */
  public Wait bodyMatches(String re2) {
    return with("body_re", re2);
  }

  /** The header {@code name} has exactly this value (trimmed); may be given several times, all must hold. */
  public Wait header(String name, String value) {
    Objects.requireNonNull(name, "name");
    if (name.indexOf(':') >= 0) throw new IllegalArgumentException("a header name holds no colon: " + name);
    return with("header", name + ": " + Objects.requireNonNull(value, "value"));
  }

  /** Only mail received after this time. */
  public Wait since(Instant time) {
    return with("since", Objects.requireNonNull(time, "time").toString());
  }

  /** Only mail received after the email with this id (of the same inbox). */
  public Wait sinceEmail(String emailId) {
    return with("since", emailId);
  }

  /** Only unread mail. */
  public Wait unread() {
    return with("unread", "true");
  }

  /** How many emails to wait for, 1 to 100 (default 1). */
  public Wait count(int count) {
    if (count < 1 || count > 100) throw new IllegalArgumentException("count is 1 to 100, not " + count);
    return with("count", Integer.toString(count));
  }

  /** How long the server waits: zero answers at once; at most {@link #MAX_TIMEOUT} (default 30 s). */
  public Wait timeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.compareTo(MAX_TIMEOUT) > 0)
      throw new IllegalArgumentException("timeout is 0 to 120 s, not " + timeout);
    return new Wait(params, timeout);
  }

  /** The timeout this wait asks for. */
  public Duration timeout() {
    return timeout == null ? DEFAULT_TIMEOUT : timeout;
  }

  /** This wait asking for one email, whatever count it had. */
  Wait single() {
    List<String[]> next = new ArrayList<>(params);
    next.removeIf(p -> p[0].equals("count"));
    return new Wait(List.copyOf(next), timeout);
  }

  /** The query string of {@code GET /inboxes/{id}/emails/wait}, without the {@code ?}. */
  String toQuery() {
    StringBuilder q = new StringBuilder();
    for (String[] p : params) append(q, p[0], p[1]);
    if (timeout != null) {
      long ms = timeout.toMillis();
      append(q, "timeout", ms == 0 ? "0" : ms + "ms");
    }
    return q.toString();
  }

  private static void append(StringBuilder q, String name, String value) {
    if (q.length() > 0) q.append('&');
    q.append(name).append('=').append(encode(value));
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public String toString() {
    return "Wait{" + toQuery() + "}";
  }
}
