import { EventType, type EventOf } from "@burnbox/contracts";
import type { RealtimeDeps } from "../deps";

/**
 * Sends a new email's summary to the inbox's sockets, with the codes and links found at intake
 * (events from before the summary field carry its parts; from before `extracted`, empty lists).
 */
export function pushReceivedEmail(deps: RealtimeDeps, event: EventOf<typeof EventType.emailReceived>): void {
  const d = event.data;
  const summary = d.summary ?? {
    id: d.email_id,
    inbox_id: d.inbox_id,
    from_address: d.from,
    subject: d.subject,
    received_at: d.received_at,
  };
  deps.hub.send(d.inbox_id, { type: EventType.emailReceived, data: { ...summary, extracted: d.extracted } });
}
