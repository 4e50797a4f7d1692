import { DomainEvent, EventType, subjects, type EventOf } from "@burnbox/contracts";
import { jetstream, jetstreamManager, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { EmailReplaySource, Missed, ReplayWindow } from "../domain/inbox-streams/email-replay";

type EmailReceived = EventOf<typeof EventType.emailReceived>;

const jsonOf = (data: Uint8Array): unknown => {
  try {
    return JSON.parse(Buffer.from(data).toString("utf8"));
  } catch {
    return null;
  }
};

/** The first range read back from the end, in stream sequence numbers; each next one is 4× longer. */
const FIRST_SPAN = 256;
/**
 * At most this many messages read for one resume: past it, the id counts as out of the window,
 * whatever the window's age would allow at a very high mail rate (or for an id that is not there).
 */
const MAX_READ = 100_000;

/**
 * The replay source: the events stream itself. JetStream keeps every `email.received` event (7
 * days, file storage, every member of a cluster), in one order that every replica and every
 * restart sees alike, and each message carries the event's id, so the event a client names is
 * found again wherever it reconnects. (The stored mail has no such order: email ids are random
 * and `received_at` is taken before a message's files are written, so a later commit can carry
 * an earlier time.)
 *
 * The events of all inboxes share one subject, so the missed ones are found by reading back from
 * the subject's last message in ranges that grow 4× (256, 1,024, … sequence numbers) until the
 * named event is met: the work is in proportion to how long the client was away, not to the
 * window. Messages older than `maxAgeMs` end the search (not in the window), and so does a
 * search that has met more than `maxEvents` of the inbox's events without the named one, or read
 * more than `MAX_READ` messages. Only the inbox's own events are collected and matched (a message
 * is parsed only when its bytes name the inbox), so an id of another inbox's event is unknown here.
 */
export function jetStreamEmailReplay(nc: NatsConnection, namespace: string, window: ReplayWindow): EmailReplaySource {
  const s = subjects(namespace);
  const subject = s.event(EventType.emailReceived);

  /** The inbox's events with sequence numbers in [from, to], in order; `tooOld` when a message before the window was met. */
  const readRange = async (
    from: number,
    to: number,
    inboxId: string,
    oldest: number,
  ): Promise<{ events: { seq: number; event: EmailReceived }[]; tooOld: boolean; read: number }> => {
    const js = jetstream(nc);
    const consumer = await js.consumers.get(s.stream, { filter_subjects: subject, opt_start_seq: from, inactive_threshold: 30_000 });
    const events: { seq: number; event: EmailReceived }[] = [];
    let tooOld = false;
    let read = 0;
    // a message of the subject lies at or after `to` (the subject's last, or one of the range read
    // before), so this loop always ends on it
    const messages = await consumer.consume({ max_messages: 256 });
    try {
      for await (const msg of messages) {
        if (msg.seq > to) break;
        read++;
        if (msg.time.getTime() < oldest) tooOld = true;
        else if (Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength).includes(inboxId)) {
          // parsed only when its bytes name the inbox: most of what is read is other inboxes' mail
          const parsed = DomainEvent.safeParse(jsonOf(msg.data));
          if (parsed.success && parsed.data.type === EventType.emailReceived && parsed.data.data.inbox_id === inboxId) {
            events.push({ seq: msg.seq, event: parsed.data });
          }
        }
        if (msg.seq >= to) break;
      }
    } finally {
      await messages.close();
      await consumer.delete().catch(() => false);
    }
    return { events, tooOld, read };
  };

  /**
   * The inbox's events read back from the subject's last message in ranges that grow 4×, each
   * range prepended to `after`, until `settle` answers (the search is over) or the stream's first
   * message is read (`after` is then every event of the inbox back to `oldest`).
   */
  const readBack = async (
    inboxId: string,
    oldest: number,
    settle: (after: EmailReceived[], tooOld: boolean, readSoFar: number) => Missed | undefined,
  ): Promise<{ settled: Missed } | { after: EmailReceived[] }> => {
    const jsm = await jetstreamManager(nc);
    const last = await jsm.streams.getMessage(s.stream, { last_by_subj: subject });
    if (!last) return { after: [] };
    const first = (await jsm.streams.info(s.stream)).state.first_seq;
    // the inbox's events from `from` to the last, in order
    let after: EmailReceived[] = [];
    let from = last.seq + 1;
    let readSoFar = 0;
    for (let span = FIRST_SPAN; from > first; span *= 4) {
      const start = Math.max(first, from - span);
      const { events, tooOld, read } = await readRange(start, from - 1, inboxId, oldest);
      readSoFar += read;
      after = events.map((e) => e.event).concat(after);
      const settled = settle(after, tooOld, readSoFar);
      if (settled) return { settled };
      from = start;
    }
    return { after };
  };

  return {
    async missed(inboxId, lastEventId) {
      const read = await readBack(inboxId, Date.now() - window.maxAgeMs, (after, tooOld, readSoFar) => {
        const at = after.findIndex((e) => e.id === lastEventId);
        if (at >= 0) {
          const rest = after.slice(at + 1);
          return rest.length > window.maxEvents ? { found: false } : { found: true, events: rest };
        }
        if (tooOld || after.length > window.maxEvents || readSoFar > MAX_READ) return { found: false };
        return undefined;
      });
      return "settled" in read ? read.settled : { found: false };
    },

    async since(inboxId, sinceMs) {
      // further back than the window: what lies before it is not read
      if (sinceMs < Date.now() - window.maxAgeMs) return { found: false };
      // back from the last message until one older than `sinceMs` is met
      const read = await readBack(inboxId, sinceMs, (after, tooOld, readSoFar) => {
        if (after.length > window.maxEvents || readSoFar > MAX_READ) return { found: false };
        return tooOld ? { found: true, events: after } : undefined;
      });
      return "settled" in read ? read.settled : { found: true, events: read.after };
    },
  };
}
