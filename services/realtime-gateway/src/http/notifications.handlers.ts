import type { notificationsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { RealtimeDeps } from "../domain/deps";
import { deleteAllNotifications } from "../domain/notifications/delete-all-notifications.use-case";
import { deleteNotification } from "../domain/notifications/delete-notification.use-case";
import { listNotifications } from "../domain/notifications/list-notifications.use-case";
import { markAllNotificationsRead } from "../domain/notifications/mark-all-notifications-read.use-case";
import { markNotificationRead } from "../domain/notifications/mark-notification-read.use-case";

export const notificationsHandlers = (deps: RealtimeDeps): Handlers<typeof notificationsRoutes> => ({
  listNotifications: ({ ctx, query }) => listNotifications(deps, ctx, query),
  markAllNotificationsRead: ({ ctx }) => markAllNotificationsRead(deps, ctx),
  markNotificationRead: ({ ctx, params }) => markNotificationRead(deps, ctx, params),
  deleteAllNotifications: ({ ctx }) => deleteAllNotifications(deps, ctx),
  deleteNotification: ({ ctx, params }) => deleteNotification(deps, ctx, params),
});
