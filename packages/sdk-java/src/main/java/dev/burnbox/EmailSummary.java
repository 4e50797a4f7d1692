package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/** An email as inbox listings and waits give it: the envelope, a snippet, and what was extracted. */
public record EmailSummary(
    String id,
    @JsonProperty("inbox_id") String inboxId,
    @JsonProperty("from_address") String fromAddress,
    String subject,
    String snippet,
    @JsonProperty("is_read") boolean read,
    @JsonProperty("has_attachments") boolean hasAttachments,
    @JsonProperty("size_bytes") long sizeBytes,
    @JsonProperty("received_at") Instant receivedAt,
    Extracted extracted) {

  public EmailSummary {
    if (extracted == null) extracted = new Extracted(null, null);
  }
}
