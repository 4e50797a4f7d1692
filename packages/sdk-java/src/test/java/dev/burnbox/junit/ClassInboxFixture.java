package dev.burnbox.junit;

import dev.burnbox.Inbox;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Run by BurnBoxExtensionTest: an inbox taken by @BeforeAll is shared by the class's tests. Not a test class of its own. */
@ExtendWith(BurnBoxExtension.class)
class ClassInboxFixture {
  static final List<String> seen = new CopyOnWriteArrayList<>();
  private static Inbox shared;

  @BeforeAll
  static void takeOne(Inbox inbox) {
    shared = inbox;
  }

  @Test
  void first() {
    seen.add(shared.id());
  }

  @Test
  void second() {
    seen.add(shared.id());
  }
}
