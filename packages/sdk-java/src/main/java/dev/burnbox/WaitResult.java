package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer of a wait, as the server gives it.
 *
 * @param data the first {@code count} matching emails, oldest first
 * @param matched how many emails matched when the server answered
 * @param timedOut true when fewer than {@code count} matched in time: how a test asserts that no
 *     such mail came
 */
public record WaitResult(
    List<EmailSummary> data, int matched, @JsonProperty("timed_out") boolean timedOut) {

  public WaitResult {
    data = data == null ? List.of() : List.copyOf(data);
  }
}
