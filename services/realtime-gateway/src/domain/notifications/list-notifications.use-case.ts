import type { ListNotificationsQuery, Notification, Page } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { RealtimeDeps } from "../deps";
import { notificationOwner } from "./notification-owner";

/** The caller's notifications, newest first; `unread` keeps the unread ones only. */
export async function listNotifications(deps: RealtimeDeps, ctx: RequestCtx, input: ListNotificationsQuery): Promise<Page<Notification>> {
  const userId = notificationOwner(ctx);
  const filter = { unreadOnly: input.unread };
  const { notifications } = deps.data.repos;
  return paginate(input, {
    rows: (window) => notifications.list(userId, filter, window),
    count: () => notifications.count(userId, filter),
    map: (rows) => rows,
  });
}
