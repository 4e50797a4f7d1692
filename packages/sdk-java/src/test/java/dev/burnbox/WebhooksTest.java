package dev.burnbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.burnbox.WebhookVerificationException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhooksTest {
  private static final String SECRET = "whsec_7f3a9c";
  private static final long SENT = 1_796_000_000L;
  private static final Clock AT_SEND = Clock.fixed(Instant.ofEpochSecond(SENT + 3), ZoneOffset.UTC);
  private static final byte[] BODY =
      "{\"id\":\"d-1\",\"event\":\"email.received\",\"timestamp\":\"2026-12-02T05:00:00.000Z\",\"data\":{\"subject\":\"Hi ✓\",\"inbox_id\":\"i-1\"}}"
          .getBytes(StandardCharsets.UTF_8);

  private final Webhooks verifier = Webhooks.verifier(SECRET).clock(AT_SEND);

  record Received(String subject, String inbox_id) {}

  private static Map<String, List<String>> headers(String signature) {
    return Map.of("x-service-signature-256", List.of(signature), "X-Service-Delivery-ID", List.of("d-1"));
  }

  @Test
  void aDeliverySignedWithTheSecretIsAcceptedAndParsed() {
    // the HMAC-SHA256 of "1796000000." + BODY under SECRET, computed apart (node:crypto createHmac), not by this library
    String signature = "t=1796000000,v1=c5f5c3f3d7ce5f9372f3e5518c17ef3e89bd5503c21e66030734f680e9f075a0";
    assertEquals(signature, verifier.sign(SENT, BODY));

    WebhookDelivery delivery = verifier.verify(headers(signature), BODY);

    assertEquals("d-1", delivery.id());
    assertEquals("email.received", delivery.event());
    assertEquals("2026-12-02T05:00:00.000Z", delivery.timestamp());
    assertEquals(new Received("Hi ✓", "i-1"), delivery.dataAs(Received.class));
  }

  @Test
  void oneMatchingV1OfSeveralIsEnoughAndOtherSchemesAreIgnored() {
    String good = verifier.sign(SENT, BODY).substring(("t=" + SENT + ",v1=").length());
    String header = "t=" + SENT + ", v0=abc, v1=" + "0".repeat(64) + ", v1=" + good;

    assertEquals("d-1", verifier.verify(headers(header), BODY).id());
  }

  @Test
  void aLookupFunctionServesAsTheHeaders() {
    String signature = verifier.sign(SENT, BODY);

    WebhookDelivery d = verifier.verify(name -> name.equalsIgnoreCase("X-Service-Signature-256") ? signature : null, BODY);

    assertEquals("d-1", d.id());
  }

  @Test
  void theReasonSaysWhyADeliveryIsRefused() {
    String signature = verifier.sign(SENT, BODY);
    byte[] altered = new String(BODY, StandardCharsets.UTF_8).replace("Hi", "Ho").getBytes(StandardCharsets.UTF_8);

    assertEquals(Reason.MISSING_SIGNATURE, refused(verifier, Map.of(), BODY));
    assertEquals(Reason.MALFORMED_SIGNATURE, refused(verifier, headers("v1=" + "a".repeat(64)), BODY));
    assertEquals(Reason.MALFORMED_SIGNATURE, refused(verifier, headers("t=" + SENT + ",v1=ABC"), BODY));
    assertEquals(Reason.MALFORMED_SIGNATURE, refused(verifier, headers("t=1,t=2,v1=" + "a".repeat(64)), BODY));
    assertEquals(Reason.MALFORMED_SIGNATURE, refused(verifier, headers("sha256=" + "a".repeat(64)), BODY));
    assertEquals(Reason.BAD_SIGNATURE, refused(verifier, headers(signature), altered));
    assertEquals(Reason.BAD_SIGNATURE, refused(Webhooks.verifier("another").clock(AT_SEND), headers(signature), BODY));
    // the same body and signature re-signed for another time: t is covered by the signature
    assertEquals(Reason.BAD_SIGNATURE, refused(verifier, headers(signature.replace("t=" + SENT, "t=" + (SENT + 1))), BODY));
    byte[] notJson = "not json".getBytes(StandardCharsets.UTF_8);
    assertEquals(Reason.MALFORMED_BODY, refused(verifier, headers(verifier.sign(SENT, notJson)), notJson));
    byte[] noId = "{\"event\":\"x\"}".getBytes(StandardCharsets.UTF_8);
    assertEquals(Reason.MALFORMED_BODY, refused(verifier, headers(verifier.sign(SENT, noId)), noId));
  }

  @Test
  void aDeliverySignedOutsideTheToleranceIsStaleEitherWay() {
    String signature = verifier.sign(SENT, BODY);
    Clock later = Clock.offset(AT_SEND, Duration.ofMinutes(6));
    Clock earlier = Clock.offset(AT_SEND, Duration.ofMinutes(-6));

    assertEquals(Reason.STALE_TIMESTAMP, refused(verifier.clock(later), headers(signature), BODY));
    assertEquals(Reason.STALE_TIMESTAMP, refused(verifier.clock(earlier), headers(signature), BODY));
    assertEquals("d-1", verifier.clock(later).tolerance(Duration.ofMinutes(10)).verify(headers(signature), BODY).id());
  }

  @Test
  void theStaticFormUsesTheSystemClock() {
    long now = Instant.now().getEpochSecond();
    String signature = Webhooks.verifier(SECRET).sign(now, BODY);

    assertEquals("d-1", BurnBox.verifyWebhook(SECRET, headers(signature), BODY).id());
    assertEquals(Reason.STALE_TIMESTAMP, refused(Webhooks.verifier(SECRET), headers(verifier.sign(now - 301, BODY)), BODY));
  }

  private static Reason refused(Webhooks v, Map<String, List<String>> headers, byte[] body) {
    return assertThrows(WebhookVerificationException.class, () -> v.verify(headers, body)).reason();
  }
}
