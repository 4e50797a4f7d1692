package dev.burnbox.live;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The app under test of the README's example: signing up mails a six-digit code; verify checks it. */
final class SignUpApp {
  private final Smtp smtp;
  private final Map<String, String> pending = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();

  SignUpApp(Smtp smtp) {
    this.smtp = smtp;
  }

  void signUp(String email) {
    String code = String.format("%06d", random.nextInt(1_000_000));
    pending.put(email, code);
    try {
      smtp.send("signup@app.example", email, "Your verification code",
          "Welcome! Your verification code is " + code + ". It expires in 10 minutes.", Map.of());
    } catch (IOException e) {
      throw new IllegalStateException("the app could not mail the code", e);
    }
  }

  boolean verify(String email, String code) {
    return code.equals(pending.get(email));
  }
}
