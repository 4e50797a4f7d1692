package dev.burnbox.junit;

import dev.burnbox.ApiException;
import dev.burnbox.BurnBox;
import dev.burnbox.Inbox;
import dev.burnbox.NewInbox;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store.CloseableResource;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects a fresh {@link Inbox} into each test (and lifecycle method) parameter of that type, and
 * deletes it when the test ends, passed or failed; a {@link BurnBox} parameter gets the client.
 *
 * <pre>{@code
 * @ExtendWith(BurnBoxExtension.class)
 * class SignUpTest {
 *   @Test
 *   void mailsACode(BurnBox burnbox, Inbox inbox) {
 *     app.signUp(inbox.fullAddress());
 *     assertTrue(app.verify(burnbox.waitForCode(inbox.id(), Wait.matching().subject("Verify"))));
 *   }
 * }
 * }</pre>
 *
 * Where it finds BurnBox: the JUnit configuration parameters (or system properties)
 * {@code burnbox.url}, {@code burnbox.api-key} and {@code burnbox.domain-assignment-id}, else the
 * environment variables {@code BURNBOX_URL}, {@code BURNBOX_API_KEY} and
 * {@code BURNBOX_DOMAIN_ASSIGNMENT_ID}. Or register it with a client of your own:
 * {@code @RegisterExtension static BurnBoxExtension burnbox = BurnBoxExtension.using(client, domainAssignmentId);}.
 * {@link InboxSettings} on a parameter sets that inbox's TTL or alias.
 */
public final class BurnBoxExtension implements ParameterResolver {
  private static final Namespace NAMESPACE = Namespace.create(BurnBoxExtension.class);

  private final BurnBox client;
  private final String domainAssignmentId;

  /** Configured from JUnit's configuration parameters or the environment (see the class description). */
  public BurnBoxExtension() {
    this(null, null);
  }

  private BurnBoxExtension(BurnBox client, String domainAssignmentId) {
    this.client = client;
    this.domainAssignmentId = domainAssignmentId;
  }

  /** An extension that creates its inboxes with this client on this domain assignment. */
  public static BurnBoxExtension using(BurnBox client, String domainAssignmentId) {
    if (client == null) throw new IllegalArgumentException("client is required");
    if (domainAssignmentId == null || domainAssignmentId.isBlank())
      throw new IllegalArgumentException("domainAssignmentId is required");
    return new BurnBoxExtension(client, domainAssignmentId);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Inbox.class || type == BurnBox.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Settings settings = settings(context);
    if (parameter.getParameter().getType() == BurnBox.class) return settings.client;

    NewInbox request = NewInbox.on(settings.domainAssignmentId);
    Optional<InboxSettings> given = parameter.findAnnotation(InboxSettings.class);
    if (given.isPresent()) {
      if (!given.get().ttl().isEmpty()) request = request.ttl(given.get().ttl());
      if (!given.get().alias().isEmpty()) request = request.alias(given.get().alias());
    }
    Inbox inbox;
    try {
      inbox = settings.client.createInbox(request);
    } catch (RuntimeException e) {
      throw new ParameterResolutionException("could not create an inbox for " + parameter.getParameter() + ": " + e.getMessage(), e);
    }
    // closed with the context it was made in: after the test, or after the class for a @BeforeAll parameter
    context.getStore(NAMESPACE).put(new Object(), new Deletion(settings.client, inbox));
    return inbox;
  }

  /** The client and the domain assignment: as given, or configured once per run (kept in the root context). */
  private Settings settings(ExtensionContext context) {
    if (client != null) return new Settings(client, domainAssignmentId);
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(Settings.class, k -> Settings.configured(context), Settings.class);
  }

  private record Settings(BurnBox client, String domainAssignmentId) {
    static Settings configured(ExtensionContext context) {
      Function<String, String> read = name -> {
        String env = name.replace("burnbox.", "BURNBOX_").replace('-', '_').toUpperCase(java.util.Locale.ROOT);
        return context.getConfigurationParameter(name).filter(v -> !v.isBlank()).orElseGet(() -> System.getenv(env));
      };
      String url = require(read, "burnbox.url");
      String key = require(read, "burnbox.api-key");
      String assignment = require(read, "burnbox.domain-assignment-id");
      return new Settings(BurnBox.builder().baseUrl(url).apiKey(key).build(), assignment);
    }

    private static String require(Function<String, String> read, String name) {
      String value = read.apply(name);
      if (value == null || value.isBlank()) {
        String env = name.replace("burnbox.", "BURNBOX_").replace('-', '_').toUpperCase(java.util.Locale.ROOT);
        throw new ParameterResolutionException(
            "BurnBoxExtension needs " + env + " (or the configuration parameter " + name + ")");
      }
      return value;
    }
  }

  /** Deletes the inbox when its context closes; one already deleted by the test is fine. */
  private record Deletion(BurnBox client, Inbox inbox) implements CloseableResource {
    @Override
    public void close() {
      try {
        client.deleteInbox(inbox.id());
      } catch (ApiException e) {
        if (e.status() != 404) throw e;
      }
    }
  }
}
