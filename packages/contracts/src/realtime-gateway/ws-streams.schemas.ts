import { z } from "../zod";
import { EmailSummary } from "../inbox/emails.schemas";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { AdminStats } from "../tenancy/admin-stats.schemas";
import { Notification, NotificationType } from "./notifications.schemas";

/** Every stream's upgrade: the single-use ticket from `POST /ws/ticket` (spec 5.3) stands for the caller. */
export const WsTicketQuery = z.object({
  ticket: z.string().openapi({ description: "A ticket from `POST /ws/ticket`: single use, valid 30 s", format: "uuid" }),
});

/**
 * `/ws/inboxes/{id}`: the ticket, and where to resume from (an extension: README "Resuming an
 * inbox stream"). With `last_event_id` (the `id` of the last frame the client saw), the frames it
 * missed come first, in order, then the live ones, none twice; or, when that id is not among the
 * inbox's last 1,000 `email.received` events of the last 10 minutes, one `resync_required` frame.
 */
export const InboxStreamQuery = WsTicketQuery.extend({
  last_event_id: Uuid.optional().openapi({
    description:
      "Resume: the `id` of the last frame received. The `email.received` frames after it (at most 1,000, of the last 10 minutes) are sent first, then the live ones; else one `resync_required` frame, then the live ones",
  }),
});

/** What a `resync_required` frame says: the resume point is unknown or older than the replay window; read the list again. */
export const InboxResyncFrameData = z
  .object({
    inbox_id: Uuid,
    last_event_id: Uuid,
    reason: z.enum(["not_in_window", "replay_unavailable"]),
  })
  .openapi("InboxResyncFrameData");

/**
 * `/ws/inboxes/{id}`: a new email's summary (with `inbox_id`), then a last frame when the inbox
 * expires or is deleted. Every frame but `resync_required` carries `id`, its event's id, which a
 * client sends back as `last_event_id` when it reconnects.
 */
export const InboxStreamFrame = z
  .object({
    type: z.enum(["email.received", "inbox.expired", "inbox.deleted", "resync_required"]),
    data: z.union([
      EmailSummary,
      z.object({ inbox_id: Uuid, expired_at: Timestamp }).openapi("InboxExpiredFrameData"),
      z.object({ inbox_id: Uuid, deleted_at: Timestamp }).openapi("InboxDeletedFrameData"),
      InboxResyncFrameData,
    ]),
    id: Uuid.optional().openapi({ description: "The id of the event this frame tells of (absent on `resync_required`)" }),
  })
  .openapi("InboxStreamFrame");

/** `/ws/notifications`: each notification of the caller as it is stored. */
export const NotificationStreamFrame = z.object({ type: NotificationType, data: Notification }).openapi("NotificationStreamFrame");

/** `/ws/admin-stats`: the platform's figures (spec 2.7) at once, then every 10 s. */
export const AdminStatsFrame = z.object({ type: z.literal("admin.stats"), data: AdminStats }).openapi("AdminStatsFrame");
