import { paginated } from "../pagination";
import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { ListNotificationsQuery, MarkAllNotificationsReadResult, Notification } from "./notifications.schemas";

// Notifications belong to the user, not to a team: no API-key scope stands for them, so keys are refused.
export const notificationsRoutes = defineRoutes({ service: "realtime-gateway", tag: "Notifications" }, [
  {
    operationId: "listNotifications",
    method: "get",
    path: "/notifications",
    auth: "user",
    summary: "The caller's notifications, newest first (`unread=true`: only unread ones)",
    request: { query: ListNotificationsQuery },
    responses: { 200: { description: "Notifications", schema: paginated(Notification, "NotificationPage") }, 400: errorResponses[400] },
  },
  {
    operationId: "markAllNotificationsRead",
    method: "post",
    path: "/notifications/mark-all-read",
    auth: "user",
    summary: "Mark every notification of the caller read",
    responses: { 200: { description: "How many were marked", schema: MarkAllNotificationsReadResult } },
  },
  {
    operationId: "markNotificationRead",
    method: "patch",
    path: "/notifications/{id}/read",
    auth: "user",
    summary: "Mark one of the caller's notifications read",
    request: { params: IdParams },
    responses: { 200: { description: "The notification", schema: Notification }, 404: errorResponses[404] },
  },
  {
    operationId: "deleteAllNotifications",
    method: "delete",
    path: "/notifications",
    auth: "user",
    summary: "Delete every notification of the caller",
    responses: { 204: { description: "Deleted" } },
  },
  {
    operationId: "deleteNotification",
    method: "delete",
    path: "/notifications/{id}",
    auth: "user",
    summary: "Delete one of the caller's notifications",
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 404: errorResponses[404] },
  },
] as const);
