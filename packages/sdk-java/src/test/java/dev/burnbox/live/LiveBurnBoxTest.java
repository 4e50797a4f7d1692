package dev.burnbox.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.burnbox.ApiException;
import dev.burnbox.BurnBox;
import dev.burnbox.Email;
import dev.burnbox.EmailSummary;
import dev.burnbox.Inbox;
import dev.burnbox.LinkKind;
import dev.burnbox.Page;
import dev.burnbox.Wait;
import dev.burnbox.WaitResult;
import dev.burnbox.WaitTimeoutException;
import dev.burnbox.WebhookDelivery;
import dev.burnbox.WebhookVerificationException;
import dev.burnbox.Webhooks;
import dev.burnbox.junit.BurnBoxExtension;
import dev.burnbox.junit.InboxSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client against a running BurnBox: what section 5 of the extensions lists for every language
 * (inboxes, mail, waits for a mail, a code or a link, webhook verification), mail sent over SMTP.
 */
@EnabledIfEnvironmentVariable(named = "BURNBOX_URL", matches = ".+")
@ExtendWith(BurnBoxExtension.class)
class LiveBurnBoxTest {
  private final Smtp smtp = Smtp.fromEnvironment();
  private final String run = "r" + UUID.randomUUID().toString().substring(0, 8);

  private void mail(Inbox inbox, String subject, String text) throws IOException {
    smtp.send("noreply@app.example", inbox.fullAddress(), subject, text, Map.of("X-Test-Run", run));
  }

  @Test
  void anInboxIsCreatedWithItsSettingsListedAndReadBack(BurnBox burnbox, @InboxSettings(ttl = "10m") Inbox inbox) {
    Inbox read = burnbox.getInbox(inbox.id());
    assertEquals(inbox.fullAddress(), read.fullAddress());
    assertTrue(read.fullAddress().startsWith(read.address() + "@"));
    Duration ttl = Duration.between(read.createdAt(), read.expiresAt());
    assertTrue(ttl.compareTo(Duration.ofMinutes(9)) > 0 && ttl.compareTo(Duration.ofMinutes(11)) < 0, ttl.toString());
    Page<Inbox> page = burnbox.listInboxes(1, 100);
    assertTrue(page.data().stream().anyMatch(i -> i.id().equals(inbox.id())));
  }

  @Test
  void aMailSentOverSmtpIsWaitedForListedAndReadWithItsLinks(BurnBox burnbox, Inbox inbox) throws IOException {
    mail(inbox, "Confirm your address", "Hello!\nConfirm here: https://app.example/verify?token=abc123\nOr leave: https://app.example/unsubscribe");

    EmailSummary summary = burnbox.waitForEmail(inbox.id(), Wait.matching().header("X-Test-Run", run).subject("confirm"));
    assertEquals("noreply@app.example", summary.fromAddress());
    assertEquals("https://app.example/verify?token=abc123", burnbox.waitForLink(inbox.id(), LinkKind.VERIFY, Wait.matching()));
    assertEquals("https://app.example/verify?token=abc123", burnbox.waitForLink(inbox.id(), Wait.matching()));
    assertEquals("https://app.example/unsubscribe", burnbox.waitForLink(inbox.id(), LinkKind.UNSUBSCRIBE, Wait.matching()));

    Page<EmailSummary> listed = burnbox.listEmails(inbox.id());
    assertEquals(List.of(summary.id()), listed.data().stream().map(EmailSummary::id).toList());
    Email email = burnbox.getEmail(summary.id());
    assertTrue(email.bodyText().contains("Confirm here"), email.bodyText());
    assertEquals(run, email.header("x-test-run").orElseThrow());
    assertEquals(2, email.extracted().links().size());
  }

  @Test
  void aWaitThatTimesOutIsAnAnswerOrAnException(BurnBox burnbox, Inbox inbox) throws IOException {
    WaitResult none = burnbox.waitForEmails(inbox.id(), Wait.matching().timeout(Duration.ZERO));
    assertTrue(none.timedOut());
    assertEquals(0, none.matched());

    mail(inbox, "One of two", "first");
    WaitTimeoutException e = assertThrows(WaitTimeoutException.class,
        () -> burnbox.waitForEmail(inbox.id(), Wait.matching().subject("never sent").timeout(Duration.ofMillis(300))));
    assertTrue(e.result().timedOut());
    WaitResult partial = burnbox.waitForEmails(inbox.id(), Wait.matching().count(2).timeout(Duration.ofMillis(300)));
    assertTrue(partial.timedOut());
    assertEquals(1, partial.matched());
  }

  @Test
  void theApisErrorCodesReachTheException(BurnBox burnbox, Inbox inbox) {
    assertEquals("not_found",
        assertThrows(ApiException.class, () -> burnbox.getEmail("0193a0c4-0000-7000-8000-000000000000")).code());
    ApiException badPattern = assertThrows(ApiException.class,
        () -> burnbox.waitForEmails(inbox.id(), Wait.matching().subjectMatches("(unclosed").timeout(Duration.ZERO)));
    assertEquals(400, badPattern.status());
    assertEquals("validation_error", badPattern.code());
    BurnBox wrongKey = BurnBox.builder().baseUrl(System.getenv("BURNBOX_URL")).apiKey("bb_not_a_real_key").build();
    assertEquals("unauthenticated", assertThrows(ApiException.class, wrongKey::listInboxes).code());

    burnbox.deleteInbox(inbox.id());
    assertEquals(404, assertThrows(ApiException.class, () -> burnbox.getInbox(inbox.id())).status());
  }

  @Test
  @EnabledIfEnvironmentVariable(named = "BURNBOX_TEAM_ID", matches = ".+")
  void aWebhookDeliveryOfTheMailIsVerifiedAndAnAlteredOneRefused(BurnBox burnbox, Inbox inbox) throws Exception {
    CompletableFuture<Map.Entry<Map<String, List<String>>, byte[]>> delivered = new CompletableFuture<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hook", x -> {
      byte[] body = x.getRequestBody().readAllBytes();
      if (new String(body, StandardCharsets.UTF_8).contains(inbox.id())) delivered.complete(Map.entry(Map.copyOf(x.getRequestHeaders()), body));
      x.sendResponseHeaders(204, -1);
      x.close();
    });
    receiver.start();
    Team team = new Team(System.getenv("BURNBOX_URL"), System.getenv("BURNBOX_API_KEY"),
        System.getenv("BURNBOX_ORG_ID"), System.getenv("BURNBOX_TEAM_ID"));
    JsonNode hook = team.createWebhook("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
    try {
      mail(inbox, "Signed delivery", "sign me");
      Map.Entry<Map<String, List<String>>, byte[]> hit = delivered.get(20, TimeUnit.SECONDS);
      String secret = hook.get("secret").asText();

      WebhookDelivery delivery = Webhooks.verify(secret, hit.getKey(), hit.getValue());
      assertEquals("email.received", delivery.event());
      assertEquals(inbox.id(), delivery.data().get("inbox_id").asText());
      String deliveryId = hit.getKey().entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(Webhooks.DELIVERY_ID_HEADER))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElseThrow();
      assertEquals(deliveryId, delivery.id());

      byte[] altered = new String(hit.getValue(), StandardCharsets.UTF_8).replace("Signed delivery", "Signed deliverx").getBytes(StandardCharsets.UTF_8);
      assertEquals(WebhookVerificationException.Reason.BAD_SIGNATURE,
          assertThrows(WebhookVerificationException.class, () -> Webhooks.verify(secret, hit.getKey(), altered)).reason());
      assertEquals(WebhookVerificationException.Reason.STALE_TIMESTAMP,
          assertThrows(WebhookVerificationException.class,
              () -> Webhooks.verifier(secret).clock(java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofMinutes(10)))
                  .verify(hit.getKey(), hit.getValue())).reason());
    } finally {
      team.deleteWebhook(hook.get("id").asText());
      receiver.stop(0);
    }
  }

  /** The team's webhooks, which this library does not manage: plain HTTP with the same key. */
  private record Team(String baseUrl, String apiKey, String orgId, String teamId) {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    JsonNode createWebhook(String url) throws IOException, InterruptedException {
      String body = JSON.writeValueAsString(Map.of("url", url, "events", List.of("email.received")));
      HttpResponse<String> res = HTTP.send(request("").header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() != 201) throw new IllegalStateException("creating the webhook: " + res.statusCode() + " " + res.body());
      return JSON.readTree(res.body());
    }

    void deleteWebhook(String id) throws IOException, InterruptedException {
      HTTP.send(request("/" + id).DELETE().build(), HttpResponse.BodyHandlers.discarding());
    }

    private HttpRequest.Builder request(String suffix) {
      String root = baseUrl.replaceAll("/+$", "").replaceAll("/api/v1$", "");
      return HttpRequest.newBuilder(URI.create(root + "/api/v1/orgs/" + orgId + "/teams/" + teamId + "/webhooks" + suffix))
          .header("Authorization", "Bearer " + apiKey);
    }
  }
}
