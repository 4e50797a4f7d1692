import { EventType, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { MailWaits } from "../domain/emails/wait/mail-waits";

interface WakeEvent {
  type?: string;
  data?: { inbox_id?: unknown; email_id?: unknown };
}

/**
 * What wakes the waits held in this process: the `email.received`, `inbox.deleted` and
 * `inbox.expired` events, read as plain NATS subscriptions of this process (no durable consumer,
 * no queue group: every replica sees every event, as the outbox relay publishes it right after
 * the intake's commit, whichever intake that was). One subscription per subject per process,
 * whatever the number of waits; `MailWaits` fans out by inbox.
 *
 * Core NATS keeps nothing for a subscriber that is away: a wake published while this process's
 * connection was down is lost. So on every reconnect, once the server has the subscriptions again
 * (a flush), every held wait re-reads the store once: mail stored during the outage still answers
 * it, and mail stored after the flush comes as a wake.
 */
export function startWaitWakes(nc: NatsConnection, namespace: string, waits: MailWaits, logger: Logger): { stop(): void } {
  const s = subjects(namespace);
  const subs = [EventType.emailReceived, EventType.inboxDeleted, EventType.inboxExpired].map((type) =>
    nc.subscribe(s.event(type), {
      callback: (err, msg) => {
        if (err) {
          logger.warn({ err }, "wait wake subscription failed");
          return;
        }
        // most events find no wait held here: not even parsed (a wait is held before its first read)
        if (!waits.holdsAny) return;
        let event: WakeEvent;
        try {
          event = msg.json<WakeEvent>();
        } catch {
          return;
        }
        const inboxId = event.data?.inbox_id;
        if (typeof inboxId !== "string") return;
        if (type === EventType.emailReceived) {
          const emailId = event.data?.email_id;
          if (typeof emailId === "string") waits.mailArrived(inboxId, emailId);
        } else waits.inboxGone(inboxId, type === EventType.inboxDeleted ? "deleted" : "expired");
      },
    }),
  );
  let stopped = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (status.type !== "reconnect") continue;
      try {
        await nc.flush();
      } catch {
        continue; // down again: the next reconnect re-reads
      }
      if (!stopped) await waits.recheckAll();
    }
  })().catch((err: unknown) => logger.warn({ err }, "wait wake status watcher ended"));
  return {
    stop: () => {
      stopped = true;
      for (const sub of subs) sub.unsubscribe();
    },
  };
}
