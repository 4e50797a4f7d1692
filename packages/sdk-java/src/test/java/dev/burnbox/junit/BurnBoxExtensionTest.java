package dev.burnbox.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.burnbox.FakeServer;
import dev.burnbox.Inbox;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs ExtensionFixture through the JUnit launcher against a fake BurnBox, and checks what it asked for. */
class BurnBoxExtensionTest {
  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = new FakeServer().inboxes();
    ExtensionFixture.seen.clear();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private TestExecutionSummary run(Map<String, String> config, DiscoverySelector selector) {
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selector)
        .configurationParameters(config)
        .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    return listener.getSummary();
  }

  private Map<String, String> configured() {
    return Map.of(
        "burnbox.url", server.url(),
        "burnbox.api-key", "bb_fixture",
        "burnbox.domain-assignment-id", "assignment-1");
  }

  @Test
  void eachInboxParameterIsAFreshInboxDeletedAfterItsTestPassedOrFailed() {
    TestExecutionSummary summary = run(configured(), selectClass(ExtensionFixture.class));

    assertEquals(4, summary.getTestsStartedCount());
    assertEquals(3, summary.getTestsSucceededCount());
    assertEquals(1, summary.getTestsFailedCount(), "the fixture's failing test");
    assertTrue(ExtensionFixture.seen.contains("one:signup-1@qa.example.test"), ExtensionFixture.seen.toString());
    List<String> creates = server.bodies("POST /api/v1/inboxes");
    assertEquals(5, creates.size(), "one inbox per Inbox parameter");
    assertTrue(creates.contains("{\"domain_assignment_id\":\"assignment-1\",\"alias\":\"signup\",\"ttl\":\"10m\"}"), creates.toString());
    assertEquals(4, creates.stream().filter(b -> b.equals("{\"domain_assignment_id\":\"assignment-1\"}")).count());
    String[] two = ExtensionFixture.seen.stream().filter(s -> s.startsWith("two:")).findFirst().orElseThrow().substring(4).split(",");
    assertTrue(!two[0].equals(two[1]), "two parameters are two inboxes: " + ExtensionFixture.seen);
    // every inbox is deleted once when its test ends, the failing test's too; the test that deleted its
    // own inbox made one of these, and the extension's later 404 for it was not an error
    List<String> deleted = server.requests.stream().filter(r -> r.method().equals("DELETE")).map(r -> r.path()).toList();
    assertEquals(5 + 1, deleted.size(), deleted.toString());
    assertEquals(5, deleted.stream().distinct().count(), deleted.toString());
    assertTrue(server.requests.stream().allMatch(r -> "Bearer bb_fixture".equals(r.header("Authorization"))));
  }

  @Test
  void anInboxTakenByBeforeAllIsSharedByTheClassAndDeletedAfterIt() {
    ClassInboxFixture.seen.clear();
    TestExecutionSummary summary = run(configured(), selectClass(ClassInboxFixture.class));

    assertEquals(2, summary.getTestsSucceededCount());
    assertEquals(1, server.count("POST /api/v1/inboxes"));
    assertEquals(2, ClassInboxFixture.seen.size());
    assertEquals(1, ClassInboxFixture.seen.stream().distinct().count());
    assertEquals(List.of("/api/v1/inboxes/" + ClassInboxFixture.seen.get(0)),
        server.requests.stream().filter(r -> r.method().equals("DELETE")).map(r -> r.path()).toList());
  }

  @Test
  @DisabledIfEnvironmentVariable(named = "BURNBOX_URL", matches = ".+", disabledReason = "BurnBox is configured by the environment")
  void withoutBurnBoxConfiguredTheTestFailsSayingWhatIsMissing() {
    TestExecutionSummary summary = run(Map.of(), selectMethod(ExtensionFixture.class, "failsAfterTakingAnInbox", Inbox.class.getName()));

    assertEquals(1, summary.getTestsFailedCount());
    String message = summary.getFailures().get(0).getException().getMessage();
    assertTrue(message.contains("BURNBOX_URL"), message);
    assertEquals(0, server.count("POST /api/v1/inboxes"));
  }
}
