import type { RequestCtx } from "@burnbox/service-kit/http";
import type { RealtimeDeps } from "../deps";
import { notificationOwner } from "./notification-owner";

/** Marks every unread notification of the caller read; `marked` counts those that changed. */
export async function markAllNotificationsRead(deps: RealtimeDeps, ctx: RequestCtx): Promise<{ marked: number }> {
  const userId = notificationOwner(ctx);
  return deps.data.write(async (repos, events) => {
    const marked = await repos.notifications.markAllRead(userId);
    events.audit({ ctx, action: "notification.all_read", org_id: null, target: { type: "notification", id: null }, metadata: { marked } });
    return { marked };
  });
}
