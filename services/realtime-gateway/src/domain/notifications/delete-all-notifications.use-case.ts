import type { RequestCtx } from "@burnbox/service-kit/http";
import type { RealtimeDeps } from "../deps";
import { notificationOwner } from "./notification-owner";

/** Deletes every notification of the caller. */
export async function deleteAllNotifications(deps: RealtimeDeps, ctx: RequestCtx): Promise<void> {
  const userId = notificationOwner(ctx);
  await deps.data.write(async (repos, events) => {
    const deleted = await repos.notifications.deleteAll(userId);
    events.audit({
      ctx,
      action: "notification.all_deleted",
      org_id: null,
      target: { type: "notification", id: null },
      metadata: { deleted },
    });
  });
}
