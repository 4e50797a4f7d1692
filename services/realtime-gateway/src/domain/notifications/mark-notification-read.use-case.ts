import type { Notification } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../deps";
import { notificationOwner } from "./notification-owner";

/** Marks one of the caller's notifications read; another user's answers like an unknown id (404). */
export async function markNotificationRead(deps: RealtimeDeps, ctx: RequestCtx, input: { id: string }): Promise<Notification> {
  const userId = notificationOwner(ctx);
  return deps.data.write(async (repos, events) => {
    const notification = await repos.notifications.markRead(userId, input.id);
    if (!notification) throw errors.notFound("notification");
    events.audit({ ctx, action: "notification.read", org_id: null, target: { type: "notification", id: notification.id } });
    return notification;
  });
}
