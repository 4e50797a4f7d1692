package dev.burnbox;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real HTTP server on 127.0.0.1 that answers each {@code METHOD /path} with what a test set, and
 * records every request it got.
 */
public final class FakeServer implements AutoCloseable {
  public record Request(String method, String path, String query, Map<String, List<String>> headers, String body) {
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  public record Answer(int status, String body, Map<String, String> headers) {
    public static Answer of(int status, String body) {
      return new Answer(status, body, Map.of());
    }
  }

  private final HttpServer server;
  private final Map<String, Function<Request, Answer>> routes = new ConcurrentHashMap<>();
  public final List<Request> requests = new CopyOnWriteArrayList<>();

  public FakeServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  BurnBox client() {
    return BurnBox.builder().baseUrl(url()).apiKey("bb_test_key").build();
  }

  FakeServer answer(String methodAndPath, int status, String body) {
    return answer(methodAndPath, status, body, Map.of());
  }

  FakeServer answer(String methodAndPath, int status, String body, Map<String, String> headers) {
    return route(methodAndPath, r -> new Answer(status, body, headers));
  }

  /** Answers {@code METHOD /path} (or every path under {@code METHOD /prefix/*}) with what {@code handler} gives. */
  public FakeServer route(String methodAndPath, Function<Request, Answer> handler) {
    routes.put(methodAndPath, handler);
    return this;
  }

  /** How many requests were {@code METHOD /path}. */
  public long count(String methodAndPath) {
    return requests.stream().filter(r -> (r.method() + " " + r.path()).equals(methodAndPath)).count();
  }

  /** The bodies of the requests to {@code METHOD /path}. */
  public List<String> bodies(String methodAndPath) {
    return requests.stream().filter(r -> (r.method() + " " + r.path()).equals(methodAndPath)).map(Request::body).toList();
  }

  Request last() {
    return requests.get(requests.size() - 1);
  }

  private void handle(HttpExchange x) throws IOException {
    String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = x.getRequestURI().getRawPath();
    Request request = new Request(x.getRequestMethod(), path, x.getRequestURI().getRawQuery(), Map.copyOf(x.getRequestHeaders()), body);
    requests.add(request);
    String key = x.getRequestMethod() + " " + path;
    Function<Request, Answer> route = routes.get(key);
    if (route == null) {
      route = routes.entrySet().stream()
          .filter(e -> e.getKey().endsWith("/*") && key.startsWith(e.getKey().substring(0, e.getKey().length() - 1)))
          .map(Map.Entry::getValue)
          .findFirst()
          .orElse(r -> Answer.of(404, "{\"error\":\"no route " + path + "\",\"code\":\"not_found\"}"));
    }
    Answer a = route.apply(request);
    byte[] out = a.body() == null ? new byte[0] : a.body().getBytes(StandardCharsets.UTF_8);
    a.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
    if (out.length > 0) x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
    if (out.length > 0) x.getResponseBody().write(out);
    x.close();
  }

  /**
   * A fake of the inbox operations the JUnit extension calls: each create makes a new inbox (its id
   * counted up), each delete of a live one answers 204, of any other 404.
   */
  public FakeServer inboxes() {
    java.util.Set<String> live = ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    route("POST /api/v1/inboxes", r -> {
      String id = String.format("0193a0c4-1111-7000-8000-%012d", next.incrementAndGet());
      live.add(id);
      return Answer.of(201, inboxJson(id));
    });
    return route("DELETE /api/v1/inboxes/*", r -> {
      String id = r.path().substring(r.path().lastIndexOf('/') + 1);
      return live.remove(id) ? Answer.of(204, null) : Answer.of(404, "{\"error\":\"Inbox not found\",\"code\":\"not_found\"}");
    });
  }

  @Override
  public void close() {
    server.stop(0);
  }

  static final String INBOX_ID = "0193a0c4-1111-7000-8000-000000000001";
  static final String EMAIL_ID = "0193a0c4-2222-7000-8000-000000000002";

  public static String inboxJson(String id) {
    return """
        {"id":"%s","address":"signup-1","full_address":"signup-1@qa.example.test",
         "domain_assignment_id":"a1","domain_id":"d1","org_id":"o1","team_id":"t1","created_by":"u1",
         "is_active":true,"private":false,"email_count":0,"unread_count":0,
         "smtp_behaviour":{"mode":"accept"},"created_at":"2026-12-02T05:00:00.000Z",
         "expires_at":"2026-12-02T06:00:00.000Z","some_future_field":1}
        """.formatted(id);
  }

  static String summaryJson(String subject, String codes, String links) {
    return """
        {"id":"%s","inbox_id":"%s","from_address":"noreply@app.example","subject":"%s",
         "snippet":"...","is_read":false,"has_attachments":false,"size_bytes":512,
         "received_at":"2026-12-02T05:01:02.345Z","authentication_summary":null,
         "extracted":{"codes":[%s],"links":[%s]}}
        """.formatted(EMAIL_ID, INBOX_ID, subject, codes, links);
  }

  static String waitJson(boolean timedOut, int matched, String... summaries) {
    return "{\"data\":[" + String.join(",", summaries) + "],\"matched\":" + matched + ",\"timed_out\":" + timedOut + "}";
  }
}
