import { DomainEvent, EventType, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { Hub } from "../adapters/ws-hub";
import type { RealtimeDeps } from "../domain/deps";
import { catchUpInboxStreams } from "../domain/inbox-streams/catch-up-inbox-streams.use-case";
import { LiveSubjects } from "./live-subjects";

/** How long before the connection dropped a frameless socket's catch-up reads (what was in flight then). */
const IN_FLIGHT_MS = 5_000;

/**
 * The inboxes whose mail this replica receives: one core NATS subscription to an inbox's live
 * subject (`subjects().live("email.received", inbox_id)`, published by the inbox service's outbox
 * relay once the stream holds the event) while this replica holds a socket on it, and none
 * otherwise (`LiveSubjects`), so mail of an inbox nobody watches here never reaches this process.
 */
export function liveInboxes(
  deps: { nc: NatsConnection; namespace: string; hub: Hub; logger: Logger },
  push: (event: DomainEvent) => void,
): LiveSubjects {
  const s = subjects(deps.namespace);
  return new LiveSubjects({ ...deps, keyName: "inbox_id", subject: (inboxId) => s.live(EventType.emailReceived, inboxId) }, (raw) => {
    const parsed = DomainEvent.safeParse(raw);
    if (parsed.success) push(parsed.data);
  });
}

/**
 * The catch-up of the live inbox subscriptions: core NATS keeps nothing for a subscriber that is
 * away, so on every reconnect each open socket is held, and once the server has the
 * subscriptions again (a flush) is sent what it missed from the events stream
 * (`catchUpInboxStreams`), then the live frames held meanwhile, none twice.
 */
export function startLiveCatchUp(deps: RealtimeDeps, logger: Logger): { stop(): void } {
  let stopped = false;
  let droppedAt: number | null = null;
  void (async () => {
    for await (const status of deps.nc.status()) {
      if (stopped) return;
      if (status.type === "disconnect") droppedAt ??= Date.now();
      if (status.type !== "reconnect") continue;
      const since = (droppedAt ?? Date.now()) - IN_FLIGHT_MS;
      const held = deps.hub.holdAll();
      try {
        await deps.nc.flush();
      } catch {
        // down again: released as they are, the next reconnect catches them up from the same frames
        for (const h of held) deps.hub.release(h.socket, []);
        continue;
      }
      droppedAt = null;
      await catchUpInboxStreams(deps, held, since);
    }
  })().catch((err: unknown) => logger.warn({ err }, "inbox live status watcher ended"));
  return {
    stop: () => {
      stopped = true;
    },
  };
}
