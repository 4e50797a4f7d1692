package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * What {@link BurnBox#createInbox(NewInbox)} sends: {@code NewInbox.on(domainAssignmentId).ttl("15m")}.
 * Each method answers a new value; absent fields take the server's defaults (a random alias, the
 * team's default TTL, a team-visible inbox).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NewInbox(
    @JsonProperty("domain_assignment_id") String domainAssignmentId,
    String alias,
    String ttl,
    @JsonProperty("private") Boolean privateInbox) {

  public NewInbox {
    Objects.requireNonNull(domainAssignmentId, "domainAssignmentId");
  }

  /** An inbox on this domain assignment (the id of the team's domain, from the console or the API). */
  public static NewInbox on(String domainAssignmentId) {
    return new NewInbox(domainAssignmentId, null, null, null);
  }

  /** The local part of the address (letters, digits, dots, dashes); absent: a random one. */
  public NewInbox alias(String alias) {
    return new NewInbox(domainAssignmentId, alias, ttl, privateInbox);
  }

  /** How long the inbox lives: {@code "15m"}, {@code "2h"}, {@code "7d"}, within the team's limits. */
  public NewInbox ttl(String ttl) {
    return new NewInbox(domainAssignmentId, alias, ttl, privateInbox);
  }

  /** True: only its creator (and the team's leads) may read it. */
  public NewInbox privateInbox(boolean privateInbox) {
    return new NewInbox(domainAssignmentId, alias, ttl, privateInbox);
  }
}
