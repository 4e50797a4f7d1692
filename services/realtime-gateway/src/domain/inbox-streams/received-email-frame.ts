import { EventType, type EventOf } from "@burnbox/contracts";
import type { HubFrame } from "../../adapters/ws-hub";

/**
 * The `email.received` frame of an event: the new email's summary with the codes and links found
 * at intake (events from before the summary field carry its parts; from before `extracted`, empty
 * lists), and the event's id, which a client resumes from. Live and replayed frames are this one.
 */
export function receivedEmailFrame(event: EventOf<typeof EventType.emailReceived>): HubFrame {
  const d = event.data;
  const summary = d.summary ?? {
    id: d.email_id,
    inbox_id: d.inbox_id,
    from_address: d.from,
    subject: d.subject,
    received_at: d.received_at,
  };
  return { type: EventType.emailReceived, data: { ...summary, extracted: d.extracted }, id: event.id };
}
