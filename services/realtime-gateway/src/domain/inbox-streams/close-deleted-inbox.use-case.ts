import { EventType, type EventOf } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";

/** Tells a deleted inbox's sockets, then closes them normally: nothing more will come. */
export function closeDeletedInbox(deps: RealtimeDeps, event: EventOf<typeof EventType.inboxDeleted>): void {
  const { inbox_id, deleted_at } = event.data;
  deps.hub.send(inbox_id, { type: EventType.inboxDeleted, data: { inbox_id, deleted_at }, id: event.id });
  deps.hub.closeInbox(inbox_id, 1000, "inbox deleted");
}
