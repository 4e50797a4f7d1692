import { DomainEvent, EventType, subjects } from "@burnbox/contracts";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { Hub } from "../adapters/ws-hub";
import type { RealtimeDeps } from "../domain/deps";
import type { InboxLiveSource } from "../domain/inbox-streams/inbox-live-source";
import { catchUpInboxStreams } from "../domain/inbox-streams/catch-up-inbox-streams.use-case";

type Subscription = ReturnType<NatsConnection["subscribe"]>;

/** How long an admitted upgrade may take to attach its socket before its inbox's subscription may go (it never came). */
const ATTACH_WITHIN_MS = 10_000;
/** How long before the connection dropped a frameless socket's catch-up reads (what was in flight then). */
const IN_FLIGHT_MS = 5_000;

/**
 * The inboxes whose mail this replica receives: one core NATS subscription to an inbox's live
 * subject (`subjects().live("email.received", inbox_id)`, published by the inbox service's outbox
 * relay once the stream holds the event) while this replica holds a socket on it, and none
 * otherwise, so mail of an inbox nobody watches here never reaches this process.
 *
 * `watch` comes before the upgrade: it subscribes (when the inbox has no subscription here yet)
 * and resolves once the server has it, so a client's socket is open only when its inbox's mail
 * reaches this replica. The subscription goes when the inbox's last socket closes
 * (`released`, the hub's `onEmpty`), unless an upgrade admitted meanwhile is still attaching.
 */
export class LiveInboxes implements InboxLiveSource {
  private readonly subs = new Map<string, { sub: Subscription; ready: Promise<void>; attaching: number }>();

  constructor(
    private readonly deps: { nc: NatsConnection; namespace: string; hub: Hub; logger: Logger },
    private readonly push: (event: DomainEvent) => void,
  ) {}

  /** Subscribes to the inbox's live subject if needed; resolves, once the server has it, with what to call once the socket is attached (or never will be). */
  async watch(inboxId: string): Promise<() => void> {
    let entry = this.subs.get(inboxId);
    if (!entry) {
      const sub = this.deps.nc.subscribe(subjects(this.deps.namespace).live(EventType.emailReceived, inboxId), {
        callback: (err, msg) => {
          if (err) return this.deps.logger.warn({ err, inbox_id: inboxId }, "inbox live subscription failed");
          let raw: unknown;
          try {
            raw = msg.json();
          } catch {
            return;
          }
          const parsed = DomainEvent.safeParse(raw);
          if (parsed.success) this.push(parsed.data);
        },
      });
      entry = { sub, ready: this.deps.nc.flush().catch(() => undefined), attaching: 0 };
      this.subs.set(inboxId, entry);
    }
    const held = entry;
    held.attaching++;
    await held.ready;
    let done = false;
    const attached = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      held.attaching--;
      this.released(inboxId);
    };
    const timer = setTimeout(attached, ATTACH_WITHIN_MS);
    timer.unref();
    return attached;
  }

  /** The inbox may have no socket left here: its subscription goes, unless one is held or attaching. */
  released(inboxId: string): void {
    const entry = this.subs.get(inboxId);
    if (!entry || entry.attaching > 0 || this.deps.hub.count(inboxId) > 0) return;
    entry.sub.unsubscribe();
    this.subs.delete(inboxId);
  }

  /** Whether this replica is subscribed to the inbox's live mail. */
  watching(inboxId: string): boolean {
    return this.subs.has(inboxId);
  }

  stop(): void {
    for (const { sub } of this.subs.values()) sub.unsubscribe();
    this.subs.clear();
  }
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
