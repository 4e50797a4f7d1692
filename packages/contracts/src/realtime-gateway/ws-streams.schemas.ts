import { z } from "../zod";
import { EmailSummary } from "../inbox/emails.schemas";
import { Timestamp, Uuid } from "../shared/common.schemas";
import { AdminStats } from "../tenancy/admin-stats.schemas";
import { Notification, NotificationType } from "./notifications.schemas";

/** Every stream's upgrade: the single-use ticket from `POST /ws/ticket` (spec 5.3) stands for the caller. */
export const WsTicketQuery = z.object({
  ticket: z.string().openapi({ description: "A ticket from `POST /ws/ticket`: single use, valid 30 s", format: "uuid" }),
});

/** `/ws/inboxes/{id}`: a new email's summary (with `inbox_id`), then a last frame when the inbox expires or is deleted. */
export const InboxStreamFrame = z
  .object({
    type: z.enum(["email.received", "inbox.expired", "inbox.deleted"]),
    data: z.union([
      EmailSummary,
      z.object({ inbox_id: Uuid, expired_at: Timestamp }).openapi("InboxExpiredFrameData"),
      z.object({ inbox_id: Uuid, deleted_at: Timestamp }).openapi("InboxDeletedFrameData"),
    ]),
  })
  .openapi("InboxStreamFrame");

/** `/ws/notifications`: each notification of the caller as it is stored. */
export const NotificationStreamFrame = z.object({ type: NotificationType, data: Notification }).openapi("NotificationStreamFrame");

/** `/ws/admin-stats`: the platform's figures (spec 2.7) at once, then every 10 s. */
export const AdminStatsFrame = z.object({ type: z.literal("admin.stats"), data: AdminStats }).openapi("AdminStatsFrame");
