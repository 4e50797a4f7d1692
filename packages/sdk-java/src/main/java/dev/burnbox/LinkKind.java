package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a link in a mail is for, judged from its URL and its anchor's text. */
public enum LinkKind {
  /** verify, confirm, activate */
  VERIFY,
  /** reset, password */
  RESET,
  /** login, sign-in, magic, token */
  MAGIC_LINK,
  /** unsubscribe, opt-out, or a List-Unsubscribe header's URL */
  UNSUBSCRIBE,
  /** anything else; also what a kind unknown to this version of the library reads as */
  OTHER;

  /** The name on the wire: {@code magic_link}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  static LinkKind fromWire(String value) {
    for (LinkKind kind : values()) if (kind.wireName().equals(value)) return kind;
    return OTHER;
  }
}
