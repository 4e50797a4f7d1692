import type { EventOf, EventType } from "@burnbox/contracts";

/** How far back a resumed stream may go: events of the last `maxAgeMs`, at most `maxEvents` of the inbox's. */
export interface ReplayWindow {
  maxAgeMs: number;
  maxEvents: number;
}

/** The inbox's `email.received` events after the one named, in order; or none, when that one is not in the window. */
export type Missed = { found: true; events: EventOf<typeof EventType.emailReceived>[] } | { found: false };

/**
 * The port a resumed inbox stream reads its missed frames from (the events stream:
 * `messaging/email-replay.ts`). Only the inbox's own events count: an id of another inbox's event
 * is not found.
 */
export interface EmailReplaySource {
  missed(inboxId: string, lastEventId: string): Promise<Missed>;
  /**
   * The inbox's `email.received` events stored at or after `sinceMs` (the stream's time), in
   * order; none found when more than the window's events are: a catch-up of a socket that has
   * no frame to resume from.
   */
  since(inboxId: string, sinceMs: number): Promise<Missed>;
}
