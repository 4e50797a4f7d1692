package dev.burnbox.live;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.burnbox.BurnBox;
import dev.burnbox.Inbox;
import dev.burnbox.Wait;
import dev.burnbox.junit.BurnBoxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;

/** The README's first example, against a running BurnBox (BURNBOX_URL, BURNBOX_API_KEY, BURNBOX_DOMAIN_ASSIGNMENT_ID). */
@EnabledIfEnvironmentVariable(named = "BURNBOX_URL", matches = ".+")
@ExtendWith(BurnBoxExtension.class)
class SignUpTest {
  private final SignUpApp app = new SignUpApp(Smtp.fromEnvironment());

  @Test
  void signUpMailsACodeThatVerifies(BurnBox burnbox, Inbox inbox) {
    app.signUp(inbox.fullAddress());
    String code = burnbox.waitForCode(inbox.id(), Wait.matching().subject("verification code"));
    assertTrue(app.verify(inbox.fullAddress(), code));
  }
}
