import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { Hub } from "../adapters/ws-hub";
import type { LiveSource } from "../domain/live-source";

type Subscription = ReturnType<NatsConnection["subscribe"]>;

/** How long an admitted upgrade may take to attach its socket before its key's subscription may go (it never came). */
const ATTACH_WITHIN_MS = 10_000;

/**
 * Core NATS subscriptions held per key (an inbox, a user) while this replica holds a socket of
 * that key in `hub`, and none otherwise: what is published for a key nobody watches here never
 * reaches this process (issue 39: a hop that delivers to nobody costs nothing).
 *
 * `watch` comes before the upgrade: it subscribes (when the key has no subscription here yet) and
 * resolves once the server has it, so a client's socket is open only when its key's messages
 * reach this replica. The subscription goes when the key's last socket closes (`released`, the
 * hub's `onEmpty`), unless an upgrade admitted meanwhile is still attaching.
 */
export class LiveSubjects implements LiveSource {
  private readonly subs = new Map<string, { sub: Subscription; ready: Promise<void>; attaching: number }>();

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      hub: Hub;
      logger: Logger;
      /** The key's subject. */
      subject: (key: string) => string;
      /** What the log calls a key ("inbox", "user"). */
      keyName: string;
    },
    /** Each message's parsed JSON (a message that is not JSON is dropped). */
    private readonly deliver: (raw: unknown, key: string) => void,
  ) {}

  /** Subscribes to the key's subject if needed; resolves, once the server has it, with what to call once the socket is attached (or never will be). */
  async watch(key: string): Promise<() => void> {
    let entry = this.subs.get(key);
    if (!entry) {
      const sub = this.deps.nc.subscribe(this.deps.subject(key), {
        callback: (err, msg) => {
          if (err) return this.deps.logger.warn({ err, [this.deps.keyName]: key }, "live subscription failed");
          let raw: unknown;
          try {
            raw = msg.json();
          } catch {
            return;
          }
          this.deliver(raw, key);
        },
      });
      entry = { sub, ready: this.deps.nc.flush().catch(() => undefined), attaching: 0 };
      this.subs.set(key, entry);
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
      this.released(key);
    };
    const timer = setTimeout(attached, ATTACH_WITHIN_MS);
    timer.unref();
    return attached;
  }

  /** The key may have no socket left here: its subscription goes, unless one is held or attaching. */
  released(key: string): void {
    const entry = this.subs.get(key);
    if (!entry || entry.attaching > 0 || this.deps.hub.count(key) > 0) return;
    entry.sub.unsubscribe();
    this.subs.delete(key);
  }

  /** Whether this replica is subscribed to the key's messages. */
  watching(key: string): boolean {
    return this.subs.has(key);
  }

  stop(): void {
    for (const { sub } of this.subs.values()) sub.unsubscribe();
    this.subs.clear();
  }
}
