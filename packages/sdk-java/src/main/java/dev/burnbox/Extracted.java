package dev.burnbox;

import java.util.List;
import java.util.Optional;

/**
 * The one-time codes and links BurnBox found in a mail when it was received; empty lists, never null.
 *
 * @param codes at most 5, best first: digit-only codes next to a keyword such as "code" or "OTP", then
 *     other codes next to a keyword, then the subject's only candidate
 * @param links each distinct http(s) URL: the HTML part's links in order, then the text part's
 */
public record Extracted(List<Code> codes, List<Link> links) {

  public Extracted {
    codes = codes == null ? List.of() : List.copyOf(codes);
    links = links == null ? List.of() : List.copyOf(links);
  }

  /** The first code, if any. */
  public Optional<String> firstCode() {
    return codes.isEmpty() ? Optional.empty() : Optional.of(codes.get(0).value());
  }

  /** The first link of this kind, if any. */
  public Optional<Link> firstLink(LinkKind kind) {
    return links.stream().filter(l -> l.kind() == kind).findFirst();
  }

  /**
   * A one-time code.
   *
   * @param value as it is to be typed: {@code 123 456} in the mail gives {@code 123456}
   * @param context up to 60 characters of the text around it
   */
  public record Code(String value, String context) {}

  /**
   * A link.
   *
   * @param text the anchor's text; empty for a URL from the text part or a List-Unsubscribe header
   */
  public record Link(String url, String text, LinkKind kind) {}
}
