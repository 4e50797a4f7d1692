import { IdParams } from "../shared/common.schemas";
import type { WsRouteDef } from "../routes/route";
import { AdminStatsFrame, InboxStreamFrame, InboxStreamQuery, NotificationStreamFrame, WsTicketQuery } from "./ws-streams.schemas";

const ticketRefused = { 401: { description: "No ticket, or one that is unknown, expired or used (answered before the upgrade)" } };

/**
 * The WebSocket streams (spec 6.5): `GET` upgrades that realtime-gateway admits with a ticket.
 * They are in the document, not in the REST route table: the api-gateway passes their upgrades
 * through to realtime-gateway and answers a plain GET with 426.
 */
export const wsStreamRoutes: readonly WsRouteDef[] = [
  {
    operationId: "openInboxStream",
    path: "/ws/inboxes/{id}",
    service: "realtime-gateway",
    tag: "WebSocket",
    summary: "Stream an inbox's new mail (needs `team.emails.view` in the inbox's team; a private inbox, its creator)",
    request: { params: IdParams, query: InboxStreamQuery },
    frame: InboxStreamFrame,
    refusals: {
      ...ticketRefused,
      400: { description: "`last_event_id` is not a UUID" },
      403: { description: "The ticket's credential may not read the inbox's mail (an API key without `team.emails.view`)" },
      404: { description: "No inbox of that id the caller may see" },
      503: { description: "The inbox service did not answer" },
    },
  },
  {
    operationId: "openNotificationStream",
    path: "/ws/notifications",
    service: "realtime-gateway",
    tag: "WebSocket",
    summary: "Stream the caller's notifications as they are stored; at most 5 sockets per user (the 6th is closed with 4429)",
    request: { query: WsTicketQuery },
    frame: NotificationStreamFrame,
    refusals: { ...ticketRefused, 403: { description: "A ticket taken with an API key (notifications belong to the user)" } },
  },
  {
    operationId: "openAdminStatsStream",
    path: "/ws/admin-stats",
    service: "realtime-gateway",
    tag: "WebSocket",
    summary: "Stream the platform's figures (system admins; never with a ticket taken with an API key)",
    request: { query: WsTicketQuery },
    frame: AdminStatsFrame,
    refusals: {
      ...ticketRefused,
      403: { description: "Not a system admin, or a ticket taken with an API key" },
      503: { description: "The figures could not be fetched" },
    },
  },
];
