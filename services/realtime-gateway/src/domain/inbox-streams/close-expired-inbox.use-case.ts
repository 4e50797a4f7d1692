import { EventType, type EventOf } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";

/** Tells an expired inbox's sockets, then closes them normally: nothing more will come. */
export function closeExpiredInbox(deps: RealtimeDeps, event: EventOf<typeof EventType.inboxExpired>): void {
  const { inbox_id, expired_at } = event.data;
  deps.hub.send(inbox_id, { type: EventType.inboxExpired, data: { inbox_id, expired_at }, id: event.id });
  deps.hub.closeInbox(inbox_id, 1000, "inbox expired");
}
