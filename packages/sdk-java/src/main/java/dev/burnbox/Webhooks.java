package dev.burnbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.burnbox.WebhookVerificationException.Reason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks webhook deliveries as BurnBox's dispatcher signs them: {@code X-Service-Signature-256:
 * t=<unix seconds>,v1=<hex>}, where {@code v1} is the lowercase hex HMAC-SHA256, keyed with the
 * webhook's secret (its text as shown when the webhook was created), of {@code t + "." + body} over
 * the exact body bytes, and {@code t} is when this attempt was sent.
 *
 * <pre>{@code
 * WebhookDelivery delivery = Webhooks.verify(secret, exchange.getRequestHeaders(), exchange.getRequestBody().readAllBytes());
 * }</pre>
 *
 * A {@code t} outside the tolerance of now (5 minutes by default) is refused, so a captured delivery
 * replayed later fails while every retry and redelivery, signed afresh when sent, passes. Several
 * {@code v1} values may be given; one matching is enough; the comparison is constant-time.
 * Retries repeat {@link WebhookDelivery#id()}: drop an id already handled.
 */
public final class Webhooks {
  /** The header that carries the signature over the send time and the body. */
  public static final String SIGNATURE_256_HEADER = "X-Service-Signature-256";
  /** The header that repeats the delivery's id. */
  public static final String DELIVERY_ID_HEADER = "X-Service-Delivery-ID";
  /** The header that names the event. */
  public static final String EVENT_HEADER = "X-Service-Event";
  /** The tolerance {@link #verify(String, Map, byte[])} applies. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final Pattern SECONDS = Pattern.compile("\\d{1,12}");
  private static final Pattern HEX_256 = Pattern.compile("[0-9a-f]{64}");

  private final byte[] secret;
  private final Duration tolerance;
  private final Clock clock;

  private Webhooks(byte[] secret, Duration tolerance, Clock clock) {
    this.secret = secret;
    this.tolerance = tolerance;
    this.clock = clock;
  }

  /** A verifier for this webhook's secret, with the default tolerance and the system clock. */
  public static Webhooks verifier(String secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.isEmpty()) throw new IllegalArgumentException("the secret is empty");
    return new Webhooks(secret.getBytes(StandardCharsets.UTF_8), DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** How far the signed time may lie from now, either way. */
  public Webhooks tolerance(Duration tolerance) {
    Objects.requireNonNull(tolerance, "tolerance");
    if (tolerance.isNegative()) throw new IllegalArgumentException("the tolerance is not negative");
    return new Webhooks(secret, tolerance, clock);
  }

  /** The clock "now" is read from (tests). */
  public Webhooks clock(Clock clock) {
    return new Webhooks(secret, tolerance, Objects.requireNonNull(clock, "clock"));
  }

  /**
   * Verifies a delivery with the default tolerance.
   *
   * @param headers the request's headers, names in any case (a {@code com.sun.net.httpserver.Headers},
   *     Spring's {@code HttpHeaders}, {@code java.net.http.HttpHeaders#map()}, ...)
   * @param body the body exactly as received, never re-serialized JSON
   * @throws WebhookVerificationException when it is unsigned, signed otherwise, signed too long ago, or not a delivery
   */
  public static WebhookDelivery verify(String secret, Map<String, ? extends Iterable<String>> headers, byte[] body) {
    return verifier(secret).verify(headers, body);
  }

  /** Verifies a delivery whose headers are looked up by {@code header} (e.g. a servlet request's {@code getHeader}). */
  public static WebhookDelivery verify(String secret, Function<String, String> header, byte[] body) {
    return verifier(secret).verify(header, body);
  }

  public WebhookDelivery verify(Map<String, ? extends Iterable<String>> headers, byte[] body) {
    Objects.requireNonNull(headers, "headers");
    return verify(name -> first(headers, name), body);
  }

  public WebhookDelivery verify(Function<String, String> header, byte[] body) {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(body, "body");
    String given = header.apply(SIGNATURE_256_HEADER);
    if (given == null || given.isBlank())
      throw new WebhookVerificationException(Reason.MISSING_SIGNATURE, "no " + SIGNATURE_256_HEADER + " header");
    Signature signature = parse(given.trim());
    if (signature == null)
      throw new WebhookVerificationException(
          Reason.MALFORMED_SIGNATURE, SIGNATURE_256_HEADER + " is not t=<unix seconds>,v1=<64 hex>");

    long nowMillis = clock.millis();
    if (Math.abs(nowMillis - signature.t * 1000) > tolerance.toMillis())
      throw new WebhookVerificationException(
          Reason.STALE_TIMESTAMP,
          "the delivery was signed at " + signature.t + ", outside " + tolerance.toSeconds() + " s of now");

    byte[] expected = hmac(signature.t, body);
    boolean ok = false;
    // every value is compared, each in constant time
    for (byte[] candidate : signature.v1) ok |= MessageDigest.isEqual(expected, candidate);
    if (!ok) throw new WebhookVerificationException(Reason.BAD_SIGNATURE, "no signature matches the body and its send time");

    JsonNode parsed;
    try {
      parsed = Json.MAPPER.readTree(body);
    } catch (IOException e) {
      throw new WebhookVerificationException(Reason.MALFORMED_BODY, "the body is not JSON");
    }
    if (parsed == null || !parsed.path("id").isTextual() || !parsed.path("event").isTextual())
      throw new WebhookVerificationException(Reason.MALFORMED_BODY, "the body is not a delivery {id, event, timestamp, data}");
    return new WebhookDelivery(
        parsed.get("id").asText(),
        parsed.get("event").asText(),
        parsed.path("timestamp").isTextual() ? parsed.get("timestamp").asText() : null,
        parsed.path("data"));
  }

  /** The {@code X-Service-Signature-256} value for this body sent at {@code unixSeconds} (to test a receiver). */
  public String sign(long unixSeconds, byte[] body) {
    return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(hmac(unixSeconds, body));
  }

  private byte[] hmac(long t, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  private record Signature(long t, List<byte[]> v1) {}

  /** {@code t=...,v1=...[,v1=...]}; other schemes are ignored; null when not of that form. */
  private static Signature parse(String value) {
    Long t = null;
    List<byte[]> v1 = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      int eq = part.indexOf('=');
      if (eq <= 0) return null;
      String key = part.substring(0, eq).trim();
      String val = part.substring(eq + 1).trim();
      if (key.equals("t")) {
        if (t != null || !SECONDS.matcher(val).matches()) return null;
        t = Long.parseLong(val);
      } else if (key.equals("v1")) {
        if (!HEX_256.matcher(val).matches()) return null;
        v1.add(HexFormat.of().parseHex(val));
      }
    }
    return t != null && !v1.isEmpty() ? new Signature(t, v1) : null;
  }

  private static String first(Map<String, ? extends Iterable<String>> headers, String name) {
    for (Map.Entry<String, ? extends Iterable<String>> e : headers.entrySet()) {
      if (e.getKey() == null || !e.getKey().equalsIgnoreCase(name) || e.getValue() == null) continue;
      Iterator<String> values = e.getValue().iterator();
      if (values.hasNext()) return values.next();
    }
    return null;
  }
}
