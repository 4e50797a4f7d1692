package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/** An inbox: mail sent to {@link #fullAddress()} lands in it until {@link #expiresAt()}. */
public record Inbox(
    String id,
    String address,
    @JsonProperty("full_address") String fullAddress,
    @JsonProperty("domain_assignment_id") String domainAssignmentId,
    @JsonProperty("domain_id") String domainId,
    @JsonProperty("org_id") String orgId,
    @JsonProperty("team_id") String teamId,
    @JsonProperty("is_active") boolean active,
    @JsonProperty("private") boolean privateInbox,
    @JsonProperty("email_count") int emailCount,
    @JsonProperty("unread_count") int unreadCount,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("expires_at") Instant expiresAt) {}
