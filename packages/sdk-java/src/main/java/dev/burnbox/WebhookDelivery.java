package dev.burnbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A webhook delivery that {@link Webhooks#verify} accepted.
 *
 * @param id the delivery's id, also {@code X-Service-Delivery-ID}: retries and redeliveries repeat it,
 *     so drop one you already handled
 * @param event {@code email.received}, {@code inbox.created}, {@code inbox.expired}, ...
 * @param timestamp when the event happened, as the body gives it (ISO 8601)
 * @param data the event's payload
 */
public record WebhookDelivery(String id, String event, String timestamp, JsonNode data) {

  /** {@link #data()} read as your own type (a record with the fields you need). */
  public <T> T dataAs(Class<T> type) {
    try {
      return Json.MAPPER.treeToValue(data, type);
    } catch (JsonProcessingException e) {
      throw new BurnBoxException("the delivery's data is not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }
}
