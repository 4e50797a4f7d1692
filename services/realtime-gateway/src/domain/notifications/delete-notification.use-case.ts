import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../deps";
import { notificationOwner } from "./notification-owner";

/** Deletes one of the caller's notifications; another user's answers like an unknown id (404). */
export async function deleteNotification(deps: RealtimeDeps, ctx: RequestCtx, input: { id: string }): Promise<void> {
  const userId = notificationOwner(ctx);
  await deps.data.write(async (repos, events) => {
    if (!(await repos.notifications.delete(userId, input.id))) throw errors.notFound("notification");
    events.audit({ ctx, action: "notification.deleted", org_id: null, target: { type: "notification", id: input.id } });
  });
}
