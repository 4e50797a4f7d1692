package dev.burnbox;

import static dev.burnbox.FakeServer.EMAIL_ID;
import static dev.burnbox.FakeServer.INBOX_ID;
import static dev.burnbox.FakeServer.inboxJson;
import static dev.burnbox.FakeServer.summaryJson;
import static dev.burnbox.FakeServer.waitJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class BurnBoxTest {
  private FakeServer server;
  private BurnBox burnbox;

  @BeforeEach
  void start() throws Exception {
    server = new FakeServer();
    burnbox = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Nested
  class Inboxes {
    @Test
    void createInboxPostsTheRequestWithTheKeyAndReadsTheInbox() {
      server.answer("POST /api/v1/inboxes", 201, inboxJson(INBOX_ID));

      Inbox inbox = burnbox.createInbox(NewInbox.on("a1").ttl("15m").alias("signup-1"));

      assertEquals(INBOX_ID, inbox.id());
      assertEquals("signup-1@qa.example.test", inbox.fullAddress());
      assertEquals(Instant.parse("2026-12-02T06:00:00Z"), inbox.expiresAt());
      assertTrue(inbox.active());
      FakeServer.Request sent = server.last();
      assertEquals("Bearer bb_test_key", sent.header("Authorization"));
      assertEquals("application/json", sent.header("Content-Type"));
      assertTrue(sent.header("User-Agent").startsWith("burnbox-java/"));
      // no h2c upgrade: a server that also serves WebSockets would take it for a handshake
      assertNull(sent.header("Upgrade"));
      assertEquals("{\"domain_assignment_id\":\"a1\",\"alias\":\"signup-1\",\"ttl\":\"15m\"}", sent.body());
    }

    @Test
    void aBaseUrlThatEndsWithApiV1IsNotExtendedTwice() {
      server.answer("GET /api/v1/inboxes/" + INBOX_ID, 200, inboxJson(INBOX_ID));
      BurnBox withPath = BurnBox.builder().baseUrl(server.url() + "/api/v1/").apiKey("bb_x").build();

      assertEquals(INBOX_ID, withPath.getInbox(INBOX_ID).id());
      assertEquals(server.url() + "/api/v1", withPath.apiRoot().toString());
    }

    @Test
    void listInboxesReadsThePage() {
      server.answer("GET /api/v1/inboxes", 200,
          "{\"data\":[" + inboxJson(INBOX_ID) + "],\"page\":2,\"per_page\":5,\"total\":6,\"total_pages\":2}");

      Page<Inbox> page = burnbox.listInboxes(2, 5);

      assertEquals(1, page.data().size());
      assertEquals(2, page.page());
      assertEquals(6, page.total());
      assertEquals("page=2&per_page=5", server.last().query());
    }

    @Test
    void deleteInboxSendsDeleteAndTakesTheEmpty204() {
      server.answer("DELETE /api/v1/inboxes/" + INBOX_ID, 204, null);

      burnbox.deleteInbox(INBOX_ID);

      assertEquals("DELETE", server.last().method());
    }

    @Test
    void anIdIsOnePathSegment() {
      assertThrows(ApiException.class, () -> burnbox.getInbox("../emails/x"));
      assertEquals("/api/v1/inboxes/..%2Femails%2Fx", server.last().path());
    }
  }

  @Nested
  class Mail {
    @Test
    void listEmailsAndGetEmailReadTheSummariesAndTheEmail() {
      server.answer("GET /api/v1/inboxes/" + INBOX_ID + "/emails", 200,
          "{\"data\":[" + summaryJson("Welcome", "", "") + "],\"page\":1,\"per_page\":20,\"total\":1,\"total_pages\":1}");
      server.answer("GET /api/v1/emails/" + EMAIL_ID, 200, """
          {"id":"%s","inbox_id":"%s","message_id":"<m1@app.example>","from_address":"noreply@app.example",
           "to_address":"signup-1@qa.example.test","subject":"Welcome","body_text":"Your code is 493817",
           "body_html":null,"headers":{"X-Test-Run":"r1"},"attachments":[{"id":"f1","filename":"a.pdf",
           "content_type":"application/pdf","size_bytes":10}],"is_read":true,"size_bytes":900,
           "received_at":"2026-12-02T05:01:02.345Z","authentication":{"spf":{"result":"pass"}},
           "extracted":{"codes":[{"value":"493817","context":"Your code is 493817"}],"links":[]}}
          """.formatted(EMAIL_ID, INBOX_ID));

      Page<EmailSummary> page = burnbox.listEmails(INBOX_ID);
      Email email = burnbox.getEmail(page.data().get(0).id());

      assertEquals("Welcome", page.data().get(0).subject());
      assertEquals("Your code is 493817", email.bodyText());
      assertNull(email.bodyHtml());
      assertEquals("r1", email.header("x-test-run").orElseThrow());
      assertEquals("a.pdf", email.attachments().get(0).filename());
      assertEquals("pass", email.authentication().path("spf").path("result").asText());
      assertEquals("493817", email.extracted().firstCode().orElseThrow());
    }
  }

  @Nested
  class Errors {
    @Test
    void theEnvelopesCodeAndMessageAreOnTheException() {
      server.answer("GET /api/v1/inboxes/" + INBOX_ID, 404, "{\"error\":\"Inbox not found\",\"code\":\"not_found\"}");

      ApiException e = assertThrows(ApiException.class, () -> burnbox.getInbox(INBOX_ID));

      assertEquals(404, e.status());
      assertEquals("not_found", e.code());
      assertEquals("Inbox not found", e.getMessage());
      assertTrue(e.body().contains("Inbox not found"));
    }

    @Test
    void aRateLimitCarriesRetryAfterFromTheBodyOrTheHeader() {
      server.answer("POST /api/v1/inboxes", 429, "{\"error\":\"Too many requests\",\"retry_after\":12}");
      ApiException fromBody = assertThrows(ApiException.class, () -> burnbox.createInbox("a1"));
      assertEquals("rate_limited", fromBody.code());
      assertEquals(Duration.ofSeconds(12), fromBody.retryAfter().orElseThrow());

      server.answer("POST /api/v1/inboxes", 429, "{\"error\":\"Too many requests\"}", Map.of("Retry-After", "7"));
      ApiException fromHeader = assertThrows(ApiException.class, () -> burnbox.createInbox("a1"));
      assertEquals(Duration.ofSeconds(7), fromHeader.retryAfter().orElseThrow());
    }

    @Test
    void aBodyThatIsNotTheEnvelopeGetsTheStatusesCode() {
      server.answer("GET /api/v1/inboxes", 502, "<html>Bad gateway</html>");

      ApiException e = assertThrows(ApiException.class, () -> burnbox.listInboxes());

      assertEquals("internal_error", e.code());
      assertEquals("<html>Bad gateway</html>", e.getMessage());
      assertFalse(e.retryAfter().isPresent());
    }

    @Test
    void anUnreachableServerIsABurnBoxExceptionWithTheCause() {
      String url = server.url();
      server.close();
      BurnBox gone = BurnBox.builder().baseUrl(url).apiKey("bb_x").build();

      BurnBoxException e = assertThrows(BurnBoxException.class, () -> gone.listInboxes());

      assertFalse(e instanceof ApiException);
      assertTrue(e.getCause() instanceof java.io.IOException);
    }

    @Test
    void theBuilderRefusesWhatCannotWork() {
      assertThrows(IllegalArgumentException.class, () -> BurnBox.builder().apiKey("not-a-key"));
      assertThrows(IllegalArgumentException.class, () -> BurnBox.builder().build());
      assertThrows(IllegalArgumentException.class, () -> BurnBox.builder().baseUrl("ftp://x").build());
      IllegalStateException missing =
          assertThrows(IllegalStateException.class, () -> BurnBox.fromEnvironment(Map.of("BURNBOX_URL", "http://x")::get));
      assertTrue(missing.getMessage().contains("BURNBOX_API_KEY"));
    }
  }

  @Nested
  class Waiting {
    private final String wait = "GET /api/v1/inboxes/" + INBOX_ID + "/emails/wait";

    @Test
    void theMatchersGoOnTheQueryAsTheServerReadsThem() {
      server.answer(wait, 200, waitJson(false, 1, summaryJson("Verify", "", "")));

      burnbox.waitForEmail(INBOX_ID, Wait.matching()
          .subject("Verify your account")
          .from("app.example")
          .header("X-Test-Run", "r 1")
          .header("X-Suite", "signup")
          .subjectMatches("^Verify.+$")
          .since(Instant.parse("2026-12-02T05:00:00Z"))
          .unread()
          .count(3)
          .timeout(Duration.ofMillis(1500)));

      assertEquals(
          "subject=Verify%20your%20account&from=app.example&header=X-Test-Run%3A%20r%201&header=X-Suite%3A%20signup"
              + "&subject_re=%5EVerify.%2B%24&since=2026-12-02T05%3A00%3A00Z&unread=true&timeout=1500ms",
          server.last().query(),
          "waitForEmail asks for one email, whatever count the Wait had");
    }

    @Test
    void waitForEmailsAnswersATimedOutWaitAsAResult() {
      server.answer(wait, 200, waitJson(true, 0));

      WaitResult result = burnbox.waitForEmails(INBOX_ID, Wait.matching().count(2).timeout(Duration.ZERO));

      assertTrue(result.timedOut());
      assertEquals(0, result.matched());
      assertEquals("count=2&timeout=0", server.last().query());
    }

    @Test
    void waitForEmailThrowsWaitTimeoutWithTheServersAnswer() {
      server.answer(wait, 200, waitJson(true, 0));

      WaitTimeoutException e = assertThrows(WaitTimeoutException.class,
          () -> burnbox.waitForEmail(INBOX_ID, Wait.matching().timeout(Duration.ofSeconds(1))));

      assertTrue(e.result().timedOut());
      assertEquals("timed out waiting for email: 0 matched", e.getMessage());
    }

    @Test
    void waitForCodeGivesTheFirstCode() {
      server.answer(wait, 200, waitJson(false, 1, summaryJson("Your code",
          "{\"value\":\"493817\",\"context\":\"code is 493 817\"},{\"value\":\"ABC123\",\"context\":\"\"}", "")));

      assertEquals("493817", burnbox.waitForCode(INBOX_ID, Wait.matching().subject("code")));
    }

    @Test
    void waitForCodeThrowsNothingExtractedWithTheEmailWhenItHoldsNone() {
      server.answer(wait, 200, waitJson(false, 1, summaryJson("Hello", "", "")));

      NothingExtractedException e = assertThrows(NothingExtractedException.class, () -> burnbox.waitForCode(INBOX_ID));

      assertEquals(EMAIL_ID, e.email().id());
    }

    @Test
    void waitForLinkGivesTheFirstLinkOfTheKindOrAnyButUnsubscribe() {
      String links = "{\"url\":\"https://app.example/unsub\",\"text\":\"Unsubscribe\",\"kind\":\"unsubscribe\"},"
          + "{\"url\":\"https://app.example/login?t=1\",\"text\":\"Sign in\",\"kind\":\"magic_link\"},"
          + "{\"url\":\"https://app.example/verify?t=2\",\"text\":\"Confirm\",\"kind\":\"verify\"},"
          + "{\"url\":\"https://app.example/new\",\"text\":\"\",\"kind\":\"some_new_kind\"}";
      server.answer(wait, 200, waitJson(false, 1, summaryJson("Welcome", "", links)));

      assertEquals("https://app.example/verify?t=2", burnbox.waitForLink(INBOX_ID, LinkKind.VERIFY, Wait.matching()));
      assertEquals("https://app.example/login?t=1", burnbox.waitForLink(INBOX_ID, Wait.matching()));
      assertEquals("https://app.example/new", burnbox.waitForLink(INBOX_ID, LinkKind.OTHER, Wait.matching()));
      assertThrows(NothingExtractedException.class, () -> burnbox.waitForLink(INBOX_ID, LinkKind.RESET, Wait.matching()));
    }

    @Test
    void aBadWaitIsTheServers400() {
      server.answer(wait, 400, "{\"error\":\"subject_re is not a valid RE2 pattern\",\"code\":\"validation_error\"}");

      ApiException e = assertThrows(ApiException.class, () -> burnbox.waitForEmail(INBOX_ID, Wait.matching().subjectMatches("(")));

      assertEquals("validation_error", e.code());
    }

    @Test
    void aWaitIsImmutableAndChecksItsBounds() {
      Wait base = Wait.matching().header("X-Test-Run", "r1");
      Wait narrowed = base.subject("Verify").subject("Confirm");

      assertEquals("header=X-Test-Run%3A%20r1", base.toQuery());
      assertEquals("header=X-Test-Run%3A%20r1&subject=Confirm", narrowed.toQuery());
      assertSame(Wait.DEFAULT_TIMEOUT, base.timeout());
      assertThrows(IllegalArgumentException.class, () -> base.count(0));
      assertThrows(IllegalArgumentException.class, () -> base.count(101));
      assertThrows(IllegalArgumentException.class, () -> base.timeout(Duration.ofSeconds(121)));
      assertThrows(IllegalArgumentException.class, () -> base.timeout(Duration.ofMillis(-1)));
      assertThrows(IllegalArgumentException.class, () -> base.header("X-Bad:", "v"));
    }
  }
}
