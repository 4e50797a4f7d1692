import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** The inbox service: an inbox was created, expired or was deleted. */
export const InboxesEventType = {
  inboxCreated: "inbox.created",
  inboxExpired: "inbox.expired",
  inboxDeleted: "inbox.deleted",
} as const;

export const InboxCreatedData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  address: z.string(),
  full_address: z.string(),
  expires_at: z.string(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
});
export const InboxExpiredData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  full_address: z.string(),
  expired_at: z.string(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
});
/** An inbox deleted by a user before its TTL (not a webhook event): realtime closes its sockets. */
export const InboxDeletedData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  full_address: z.string(),
  deleted_at: z.string(),
  /**
   * Whether it was still active (not deactivated by a domain transfer), so tenancy's inbox counters
   * still held it; absent on events from before it was added and on a deleted tenant's inboxes.
   */
  was_active: z.boolean().optional(),
});

export const InboxCreatedEvent = envelope(InboxesEventType.inboxCreated, InboxCreatedData);
export const InboxExpiredEvent = envelope(InboxesEventType.inboxExpired, InboxExpiredData);
export const InboxDeletedEvent = envelope(InboxesEventType.inboxDeleted, InboxDeletedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const inboxesEvents = [InboxCreatedEvent, InboxExpiredEvent, InboxDeletedEvent] as const;
