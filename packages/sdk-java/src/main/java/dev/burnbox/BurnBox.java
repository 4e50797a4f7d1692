package dev.burnbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A BurnBox client over {@link HttpClient}: create and delete inboxes, list and read mail, and wait for
 * a mail, its one-time code or its link. Thread-safe; build one and share it.
 *
 * <pre>{@code
 * BurnBox burnbox = BurnBox.builder().baseUrl("https://burnbox.example.com").apiKey(System.getenv("BURNBOX_API_KEY")).build();
 * Inbox inbox = burnbox.createInbox(NewInbox.on(domainAssignmentId).ttl("15m"));
 * String code = burnbox.waitForCode(inbox.id(), Wait.matching().subject("Verify"));
 * }</pre>
 *
 * Every method throws {@link ApiException} (with the API's {@code code}) for an answer other than 2xx,
 * and {@link BurnBoxException} when BurnBox cannot be reached.
 */
public final class BurnBox {
  /** What every request carries as User-Agent. */
  public static final String USER_AGENT = "burnbox-java/0.1.0";

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  /** How much longer than the wait's own timeout the HTTP request may take. */
  private static final Duration WAIT_MARGIN = Duration.ofSeconds(15);

  private final URI apiRoot;
  private final String credential;
  private final HttpClient http;

  private BurnBox(Builder b) {
    this.apiRoot = apiRoot(b.baseUrl);
    this.credential = b.apiKey != null ? b.apiKey : b.token;
    this.http =
        b.httpClient != null
            ? b.httpClient
            // HTTP/1.1: on plain http the default would ask for an h2c upgrade, which servers that
            // also serve WebSockets (BurnBox's gateway among them) take for a WebSocket handshake
            : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A client from {@code BURNBOX_URL} and {@code BURNBOX_API_KEY}. */
  public static BurnBox fromEnvironment() {
    return fromEnvironment(System::getenv);
  }

  /** A client from {@code BURNBOX_URL} and {@code BURNBOX_API_KEY} as {@code env} answers them. */
  public static BurnBox fromEnvironment(Function<String, String> env) {
    String url = env.apply("BURNBOX_URL");
    if (url == null || url.isBlank()) throw new IllegalStateException("BURNBOX_URL is not set");
    String key = env.apply("BURNBOX_API_KEY");
    if (key == null || key.isBlank()) throw new IllegalStateException("BURNBOX_API_KEY is not set");
    return builder().baseUrl(url).apiKey(key).build();
  }

  /** Where the API answers: the base URL with {@code /api/v1}. */
  public URI apiRoot() {
    return apiRoot;
  }

  // ---- inboxes

  /** Creates an inbox. */
  public Inbox createInbox(NewInbox inbox) {
    return send("POST", "/inboxes", Objects.requireNonNull(inbox, "inbox"), type(Inbox.class), REQUEST_TIMEOUT);
  }

  /** Creates an inbox on this domain assignment, with the team's default TTL and a random address. */
  public Inbox createInbox(String domainAssignmentId) {
    return createInbox(NewInbox.on(domainAssignmentId));
  }

  public Inbox getInbox(String inboxId) {
    return send("GET", "/inboxes/" + segment(inboxId), null, type(Inbox.class), REQUEST_TIMEOUT);
  }

  /** The first page of the inboxes the credential may see, newest first. */
  public Page<Inbox> listInboxes() {
    return listInboxes(1, 20);
  }

  public Page<Inbox> listInboxes(int page, int perPage) {
    return send("GET", "/inboxes?page=" + page + "&per_page=" + perPage, null, pageOf(Inbox.class), REQUEST_TIMEOUT);
  }

  /** Deletes an inbox and its mail. */
  public void deleteInbox(String inboxId) {
    send("DELETE", "/inboxes/" + segment(inboxId), null, null, REQUEST_TIMEOUT);
  }

  // ---- mail

  /** The first page of an inbox's emails, newest first. */
  public Page<EmailSummary> listEmails(String inboxId) {
    return listEmails(inboxId, 1, 20);
  }

  public Page<EmailSummary> listEmails(String inboxId, int page, int perPage) {
    String path = "/inboxes/" + segment(inboxId) + "/emails?page=" + page + "&per_page=" + perPage;
    return send("GET", path, null, pageOf(EmailSummary.class), REQUEST_TIMEOUT);
  }

  /** An email in full: bodies, headers, attachments' metadata, what was extracted. */
  public Email getEmail(String emailId) {
    return send("GET", "/emails/" + segment(emailId), null, type(Email.class), REQUEST_TIMEOUT);
  }

  // ---- waiting (the server holds the request until the mail is in)

  /**
   * Waits on the server until {@code count} emails match or the timeout passes, and answers as the
   * server does: a wait that timed out is an answer ({@link WaitResult#timedOut()}), not an exception,
   * which is how a test asserts that no such mail came.
   */
  public WaitResult waitForEmails(String inboxId, Wait wait) {
    Objects.requireNonNull(wait, "wait");
    String query = wait.toQuery();
    String path = "/inboxes/" + segment(inboxId) + "/emails/wait" + (query.isEmpty() ? "" : "?" + query);
    return send("GET", path, null, type(WaitResult.class), wait.timeout().plus(WAIT_MARGIN));
  }

  /**
   * The first email that matches, as soon as it is in (mail that came before the call counts).
   *
   * @throws WaitTimeoutException when none came within the wait's timeout
   */
  public EmailSummary waitForEmail(String inboxId, Wait wait) {
    WaitResult result = waitForEmails(inboxId, Objects.requireNonNull(wait, "wait").single());
    if (result.timedOut() || result.data().isEmpty()) throw new WaitTimeoutException(result);
    return result.data().get(0);
  }

  /** The first email of the inbox, within 30 s. */
  public EmailSummary waitForEmail(String inboxId) {
    return waitForEmail(inboxId, Wait.matching());
  }

  /**
   * The first one-time code of the first email that matches.
   *
   * @throws WaitTimeoutException when no such email came in time
   * @throws NothingExtractedException when it holds no code
   */
  public String waitForCode(String inboxId, Wait wait) {
    EmailSummary email = waitForEmail(inboxId, wait);
    return email.extracted().firstCode()
        .orElseThrow(() -> new NothingExtractedException("email " + email.id() + " holds no code", email));
  }

  /** The first one-time code of the inbox's first email, within 30 s. */
  public String waitForCode(String inboxId) {
    return waitForCode(inboxId, Wait.matching());
  }

  /**
   * The URL of the first link of {@code kind} in the first email that matches.
   *
   * @throws WaitTimeoutException when no such email came in time
   * @throws NothingExtractedException when it holds no such link
   */
  public String waitForLink(String inboxId, LinkKind kind, Wait wait) {
    Objects.requireNonNull(kind, "kind");
    EmailSummary email = waitForEmail(inboxId, wait);
    return email.extracted().firstLink(kind).map(Extracted.Link::url)
        .orElseThrow(() -> new NothingExtractedException(
            "email " + email.id() + " holds no " + kind.wireName() + " link", email));
  }

  /** The URL of the first link that is not an unsubscribe link, in the first email that matches. */
  public String waitForLink(String inboxId, Wait wait) {
    EmailSummary email = waitForEmail(inboxId, wait);
    return email.extracted().links().stream()
        .filter(l -> l.kind() != LinkKind.UNSUBSCRIBE)
        .map(Extracted.Link::url)
        .findFirst()
        .orElseThrow(() -> new NothingExtractedException("email " + email.id() + " holds no link", email));
  }

  // ---- webhooks

  /**
   * Verifies a webhook delivery with a tolerance of 5 minutes: see {@link Webhooks#verify(String, Map, byte[])}.
   */
  public static WebhookDelivery verifyWebhook(String secret, Map<String, ? extends Iterable<String>> headers, byte[] body) {
    return Webhooks.verify(secret, headers, body);
  }

  // ---- HTTP

  private <T> T send(String method, String pathAndQuery, Object body, JavaType answer, Duration timeout) {
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(apiRoot + pathAndQuery))
        .timeout(timeout)
        .header("Accept", "application/json")
        .header("User-Agent", USER_AGENT);
    if (credential != null) req.header("Authorization", "Bearer " + credential);
    if (body != null) {
      byte[] json;
      try {
        json = Json.MAPPER.writeValueAsBytes(body);
      } catch (JsonProcessingException e) {
        throw new BurnBoxException("could not write the request body", e);
      }
      req.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofByteArray(json));
    } else {
      req.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<byte[]> res;
    try {
      res = http.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new BurnBoxException(method + " " + pathAndQuery + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BurnBoxException(method + " " + pathAndQuery + ": interrupted", e);
    }
    if (res.statusCode() / 100 != 2) throw error(res.statusCode(), res.body(), res.headers());
    if (answer == null) return null;
    try {
      return Json.MAPPER.readValue(res.body(), answer);
    } catch (IOException e) {
      throw new BurnBoxException(method + " " + pathAndQuery + ": the answer is not what the API documents: " + e.getMessage(), e);
    }
  }

  /** The exception for an answer other than 2xx: the envelope {@code {error, code}}, or a 429's {@code {error, retry_after}}. */
  static ApiException error(int status, byte[] raw, HttpHeaders headers) {
    String text = new String(raw, StandardCharsets.UTF_8);
    JsonNode envelope = null;
    try {
      JsonNode parsed = text.isEmpty() ? null : Json.MAPPER.readTree(text);
      if (parsed != null && parsed.isObject()) envelope = parsed;
    } catch (IOException notJson) {
      // a proxy's HTML page, say: the status speaks for it
    }
    String code = envelope != null && envelope.path("code").isTextual() ? envelope.get("code").asText() : ApiException.fallbackCode(status);
    String message;
    if (envelope != null && envelope.path("error").isTextual()) message = envelope.get("error").asText();
    else if (!text.isBlank() && envelope == null) message = text.length() > 200 ? text.substring(0, 200) : text;
    else message = "HTTP " + status;
    Duration retryAfter = null;
    if (status == 429) {
      if (envelope != null && envelope.path("retry_after").isNumber()) {
        retryAfter = Duration.ofMillis(Math.round(envelope.get("retry_after").asDouble() * 1000));
      } else {
        Optional<String> header = headers.firstValue("retry-after");
        if (header.isPresent() && header.get().matches("\\d+")) retryAfter = Duration.ofSeconds(Long.parseLong(header.get()));
      }
    }
    return new ApiException(status, code, message, text, retryAfter);
  }

  private static JavaType type(Class<?> c) {
    return Json.MAPPER.getTypeFactory().constructType(c);
  }

  private static JavaType pageOf(Class<?> c) {
    return Json.MAPPER.getTypeFactory().constructParametricType(Page.class, c);
  }

  private static String segment(String id) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) throw new IllegalArgumentException("an id is not empty");
    return Wait.encode(id);
  }

  private static URI apiRoot(String baseUrl) {
    if (baseUrl == null || baseUrl.isBlank()) throw new IllegalArgumentException("baseUrl is required");
    String root = baseUrl.replaceAll("/+$", "");
    URI uri = URI.create(root.endsWith("/api/v1") ? root : root + "/api/v1");
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()))
      throw new IllegalArgumentException("baseUrl is an http or https URL, not " + baseUrl);
    return uri;
  }

  /** Builds a {@link BurnBox}: {@code baseUrl} and one credential. */
  public static final class Builder {
    private String baseUrl;
    private String apiKey;
    private String token;
    private HttpClient httpClient;

    private Builder() {}

    /** Where BurnBox answers, e.g. {@code https://burnbox.example.com} ({@code /api/v1} is added unless given). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** A team API key ({@code bb_...}), sent as {@code Authorization: Bearer}. */
    public Builder apiKey(String apiKey) {
      if (apiKey != null && !apiKey.startsWith("bb_")) throw new IllegalArgumentException("an API key starts with bb_");
      this.apiKey = apiKey;
      return this;
    }

    /** A JWT access token instead of an API key. */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /**
     * The HttpClient to send with (a proxy, an SSLContext of your own); default: a new one speaking
     * HTTP/1.1. Over plain http, give yours {@code version(HttpClient.Version.HTTP_1_1)} too.
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public BurnBox build() {
      return new BurnBox(this);
    }
  }
}
