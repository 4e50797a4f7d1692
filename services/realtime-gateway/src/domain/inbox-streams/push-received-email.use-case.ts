import type { EventOf, EventType } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";
import { receivedEmailFrame } from "./received-email-frame";

/** Sends a new email's frame to the inbox's sockets. */
export function pushReceivedEmail(deps: RealtimeDeps, event: EventOf<typeof EventType.emailReceived>): void {
  deps.hub.send(event.data.inbox_id, receivedEmailFrame(event));
}
