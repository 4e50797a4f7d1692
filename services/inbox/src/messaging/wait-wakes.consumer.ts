import { EventType, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { MailWaits } from "../domain/emails/wait/mail-waits";

interface WakeEvent {
  type?: string;
  data?: { inbox_id?: unknown; email_id?: unknown };
}

/** How long a new wait's first read waits for its inbox's subscription to reach the server (NATS away: the reconnect re-reads). */
const SUBSCRIBE_WAIT_MS = 1000;

/**
 * What wakes the waits held in this process, as plain NATS subscriptions of this process (no
 * durable consumer, no queue group: every replica that holds a wait hears its wakes, whichever
 * intake took the mail):
 * - an inbox's mail: its live subject (`subjects().live("email.received", inbox_id)`, which the
 *   outbox relay publishes once the stream holds the event), subscribed while a wait is held on
 *   that inbox here and only then: mail of an inbox nobody waits on never reaches this process;
 * - `inbox.deleted` and `inbox.expired` (rare): one subscription each per process.
 *
 * Core NATS keeps nothing for a subscriber that is away: a wake published while this process's
 * connection was down is lost. So on every reconnect, once the server has the subscriptions again
 * (a flush), every held wait re-reads the store once: mail stored during the outage still answers
 * it, and mail stored after the flush comes as a wake.
 */
export function startWaitWakes(nc: NatsConnection, namespace: string, waits: MailWaits, logger: Logger): { stop(): void } {
  const s = subjects(namespace);
  const failed = (err: Error) => logger.warn({ err }, "wait wake subscription failed");
  const json = (data: { json<T>(): T }): WakeEvent | null => {
    try {
      return data.json<WakeEvent>();
    } catch {
      return null;
    }
  };
  const subs = [EventType.inboxDeleted, EventType.inboxExpired].map((type) =>
    nc.subscribe(s.event(type), {
      callback: (err, msg) => {
        if (err) return failed(err);
        // most events find no wait held here: not even parsed (a wait is held before its first read)
        if (!waits.holdsAny) return;
        const inboxId = json(msg)?.data?.inbox_id;
        if (typeof inboxId === "string") waits.inboxGone(inboxId, type === EventType.inboxDeleted ? "deleted" : "expired");
      },
    }),
  );
  const mail = new Map<string, ReturnType<NatsConnection["subscribe"]>>();
  waits.wakeFrom({
    watch: async (inboxId) => {
      mail.set(
        inboxId,
        nc.subscribe(s.live(EventType.emailReceived, inboxId), {
          callback: (err, msg) => {
            if (err) return failed(err);
            const emailId = json(msg)?.data?.email_id;
            if (typeof emailId === "string") waits.mailArrived(inboxId, emailId);
          },
        }),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        nc.flush().catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
    },
    unwatch: (inboxId) => {
      mail.get(inboxId)?.unsubscribe();
      mail.delete(inboxId);
    },
  });
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
      for (const sub of [...subs, ...mail.values()]) sub.unsubscribe();
      mail.clear();
    },
  };
}
