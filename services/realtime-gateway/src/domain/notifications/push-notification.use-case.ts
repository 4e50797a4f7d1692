import type { NotificationPush } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";

/** Sends a stored notification to its user's sockets on this replica: `{type, data: Notification}`. */
export function pushNotification(deps: RealtimeDeps, push: NotificationPush): void {
  deps.notificationHub.send(push.user_id, { type: push.notification.type, data: push.notification });
}
