package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An email in full, from {@link BurnBox#getEmail(String)}.
 *
 * @param bodyText the text part, or null
 * @param bodyHtml the HTML part, or null
 * @param headers the headers, by name
 * @param authentication SPF, DKIM, DMARC and ARC verdicts as BurnBox worked them out (null on older mail)
 */
public record Email(
    String id,
    @JsonProperty("inbox_id") String inboxId,
    @JsonProperty("message_id") String messageId,
    @JsonProperty("from_address") String fromAddress,
    @JsonProperty("to_address") String toAddress,
    String subject,
    @JsonProperty("body_text") String bodyText,
    @JsonProperty("body_html") String bodyHtml,
    Map<String, String> headers,
    List<Attachment> attachments,
    @JsonProperty("is_read") boolean read,
    @JsonProperty("size_bytes") long sizeBytes,
    @JsonProperty("received_at") Instant receivedAt,
    Extracted extracted,
    JsonNode authentication) {

  public Email {
    headers = headers == null ? Map.of() : Map.copyOf(headers);
    attachments = attachments == null ? List.of() : List.copyOf(attachments);
    if (extracted == null) extracted = new Extracted(null, null);
  }

  /** A header's value; the name is matched without regard to case. */
  public Optional<String> header(String name) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .findFirst();
  }

  /** An attachment's metadata; its bytes are at {@code GET /emails/{id}/attachments/{aid}}. */
  public record Attachment(
      String id,
      String filename,
      @JsonProperty("content_type") String contentType,
      @JsonProperty("size_bytes") long sizeBytes) {}
}
