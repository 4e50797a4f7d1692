import { EventType, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";

/** What may stand as a subject token: an id (no `.`, `*`, `>` or white space). */
const TOKEN = /^[0-9A-Za-z_-]+$/;

/**
 * The outbox relay's live copy of this service's events (service-kit `startOutboxRelay`'s
 * `live`): each `email.received` goes, once the stream holds it, to its inbox's core subject
 * `subjects().live("email.received", inbox_id)` too. Only where someone watches that inbox is it
 * received: the realtime replicas holding a socket on it, the inbox processes holding a wait on
 * it; every other event goes to the stream alone.
 */
export function liveMail(nc: NatsConnection, namespace: string) {
  const s = subjects(namespace);
  const received = s.event(EventType.emailReceived);
  return {
    nc,
    subjectOf: ({ subject, event }: { subject: string; event: unknown }): string | null => {
      if (subject !== received) return null;
      const inboxId = (event as { data?: { inbox_id?: unknown } } | null)?.data?.inbox_id;
      return typeof inboxId === "string" && TOKEN.test(inboxId) ? s.live(EventType.emailReceived, inboxId) : null;
    },
  };
}
