package dev.burnbox.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.burnbox.BurnBox;
import dev.burnbox.Inbox;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The tests BurnBoxExtensionTest runs through the JUnit launcher, against its fake server (configured
 * by the launcher's configuration parameters). Not a test class of its own: surefire's patterns skip
 * it, and it fails when run alone without BurnBox configured.
 */
@ExtendWith(BurnBoxExtension.class)
class ExtensionFixture {
  static final List<String> seen = new CopyOnWriteArrayList<>();

  @Test
  void getsAClientAndAnInbox(BurnBox burnbox, Inbox inbox) {
    assertNotNull(burnbox);
    seen.add("one:" + inbox.fullAddress());
  }

  @Test
  void getsTwoInboxesTheFirstWithSettings(@InboxSettings(ttl = "10m", alias = "signup") Inbox first, Inbox second) {
    seen.add("two:" + first.id() + "," + second.id());
  }

  @Test
  void failsAfterTakingAnInbox(Inbox inbox) {
    seen.add("failing:" + inbox.id());
    fail("this test fails on purpose: its inbox is deleted all the same");
  }

  @Test
  void deletesItsOwnInbox(BurnBox burnbox, Inbox inbox) {
    burnbox.deleteInbox(inbox.id());
    seen.add("deleted-itself");
    assertEquals(1, 1);
  }
}
