import type { NatsConnection } from "@nats-io/nats-core";
import { subjects } from "@burnbox/contracts";

/**
 * Values of one process kept in memory and dropped, all at once, whenever a core-NATS broadcast
 * on `subject` says the source changed (tenancy's access_changed, identity's api_key_changed).
 *
 * - A value asked before an invalidation and answered after it is never stored (the generation
 *   check): it may be the state before the change.
 * - No entry lives longer than `maxAgeMs`, which bounds what a lost broadcast could leave.
 * - A disconnect or reconnect drops everything (broadcasts sent meanwhile are lost). With
 *   `onlyWhileSubscribed`, nothing is kept or served at all from a disconnect until the server has
 *   confirmed the (re-)subscription, nor before the first confirmation.
 */
export class BroadcastCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  /** Loads in flight, by key, with the generation each began in. */
  private readonly loading = new Map<string, { generation: number; value: Promise<V> }>();
  private generation = 0;
  private subscribed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
    private readonly opts: { maxAgeMs: number; maxEntries: number; onlyWhileSubscribed: boolean; now?: () => number },
  ) {
    nc.subscribe(subject, { callback: () => this.invalidate() });
    void this.confirm();
    void this.watch();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private get usable(): boolean {
    return this.subscribed || !this.opts.onlyWhileSubscribed;
  }

  private async confirm(): Promise<void> {
    const generation = this.generation;
    try {
      await this.nc.flush(); // the server has processed our SUB: broadcasts from now on reach us
      if (generation === this.generation) this.subscribed = true;
    } catch {
      // closed or disconnected: the status watcher confirms again on reconnect
    }
  }

  private async watch(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnecting" || s.type === "close") {
        this.subscribed = false;
        this.invalidate();
      } else if (s.type === "reconnect") {
        this.invalidate();
        void this.confirm();
      }
    }
  }

  /** Whether values are being kept (with `onlyWhileSubscribed`: the subscription is confirmed). */
  get active(): boolean {
    return this.usable;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  /**
   * Tells every process holding a cache on this subject (this one included) that the source
   * changed: this process's values go at once, before the change is answered, the others' when
   * the broadcast arrives. Call it after the change committed.
   */
  changed(): void {
    this.invalidate();
    this.nc.publish(this.subject);
  }

  /**
   * The kept value of `key` if it is young enough, else `load()`'s, kept when no change overtook
   * it. Callers that miss the same key while its load is in flight share that load (an entry that
   * expires under a steady load is asked for once, not once per request until the first answer),
   * unless a change came since that load began: they then load afresh.
   *
   * With `keep`, a value is kept and served from memory only while `keep(value)` holds: a value it
   * rejects (an absence not worth keeping, or one that is out of date by its own terms) is loaded
   * again at the next call.
   */
  get(key: string, load: () => Promise<V>, keep?: (value: V) => boolean): Promise<V> {
    const hit = this.usable ? this.entries.get(key) : undefined;
    if (hit && this.now() - hit.at < this.opts.maxAgeMs && (!keep || keep(hit.value))) return Promise.resolve(hit.value);
    const generation = this.generation;
    const pending = this.usable ? this.loading.get(key) : undefined;
    if (pending && pending.generation === generation) return pending.value;
    const value = load().then((v) => {
      if (this.usable && generation === this.generation && (!keep || keep(v))) {
        if (this.entries.size >= this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value: v, at: this.now() });
      }
      return v;
    });
    if (this.usable) {
      const entry = { generation, value };
      this.loading.set(key, entry);
      const done = () => {
        if (this.loading.get(key) === entry) this.loading.delete(key);
      };
      value.then(done, done);
    }
    return value;
  }
}

/** Where a repository's cache hears of changes: the process's NATS connection and namespace, and how long a value may live (1 s unless said). */
export interface ChangeBroadcasts {
  nc: NatsConnection;
  namespace: string;
  maxAgeMs?: number;
}

/**
 * A repository's copy of a source its service changes seldom (the dispatcher's subscribers, the
 * intake's recipients), dropped by every process on the broadcast `subject` names (announced with
 * `changed()`): values live `maxAgeMs` (1 s), at most 10,000 are kept, and none while the
 * subscription is down. Null without `broadcasts`: the repository then reads every time.
 */
export function changeCache<V>(
  broadcasts: ChangeBroadcasts | undefined,
  subject: (s: ReturnType<typeof subjects>) => string,
): BroadcastCache<V> | null {
  if (!broadcasts) return null;
  return new BroadcastCache<V>(broadcasts.nc, subject(subjects(broadcasts.namespace)), {
    maxAgeMs: broadcasts.maxAgeMs ?? 1000,
    maxEntries: 10_000,
    onlyWhileSubscribed: true,
  });
}
