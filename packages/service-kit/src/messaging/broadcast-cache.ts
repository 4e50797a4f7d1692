import type { NatsConnection } from "@nats-io/nats-core";
import { subjects, type DomainEvent } from "@burnbox/contracts";
import { LRUCache } from "lru-cache";
import { flushWithin } from "./nats";

/**
 * One thing a commit changed, as caches hear of it: a committed domain event (its type, tenant and
 * data), or a change a repository recorded in the transaction (`ChangeLog`) for a write that emits
 * no event (a team's inboxes moved). Its `type` is the event type or the change subject.
 */
export interface Change {
  type: string;
  org_id: string | null;
  team_id: string | null;
  data: unknown;
}

/** What a cache drops on a change: the keys named, everything (`"all"`), or nothing (`null`). */
export type Drop = readonly string[] | "all" | null;

/**
 * A cache's declaration of what invalidates it: per event type or change subject, `"all"` or a
 * function naming the keys to drop (precise when the change carries the key, e.g. an address).
 */
export type Invalidations = Readonly<Record<string, "all" | ((change: Change) => Drop)>>;

/** The sink, inside `write()`, for a change that commits no event but that caches may hold. */
export interface ChangeLog {
  record(change: Change): void;
}

/** The core-NATS subject on which every commit's changes of `type` are broadcast. */
export function changeSubject(namespace: string, type: string): string {
  return subjects(namespace).changes(type);
}

/** The caches of each connection, so that a commit drops this process's copies at once. */
const local = new WeakMap<NatsConnection, Set<BroadcastCache<unknown>>>();

/**
 * Tells every process (this one included) what a commit changed: one broadcast per type, each
 * cache registered for it dropping what it names. Resolves once the server has the broadcasts
 * (it is then ahead of the change's answer on every replica's connection: true), or after
 * `maxWaitMs` or on a closed connection (false). The unit of work calls it after every commit; a
 * use case that must not answer before the drop is out (a deleted tenant's keys) checks the result.
 */
export async function publishChanges(
  nc: NatsConnection,
  namespace: string,
  changes: readonly Change[],
  maxWaitMs = 1000,
): Promise<boolean> {
  if (changes.length === 0) return true;
  const byType = new Map<string, Change[]>();
  for (const c of changes) {
    const same = byType.get(c.type);
    if (same) same.push(c);
    else byType.set(c.type, [c]);
  }
  for (const cache of local.get(nc) ?? []) for (const c of changes) cache.apply(c);
  try {
    for (const [type, list] of byType) nc.publish(changeSubject(namespace, type), JSON.stringify(list));
  } catch {
    return false; // closed: the other replicas' caches drop everything on the disconnect
  }
  return flushWithin(nc, maxWaitMs);
}

/** A committed event as a change. */
export function eventChange(e: DomainEvent): Change {
  return { type: e.type, org_id: e.org_id, team_id: e.team_id, data: e.data };
}

/** What the cache uses of its LRUCache, declared as methods so that a BroadcastCache<V> is a BroadcastCache<unknown>. */
interface KeptValues<V> {
  get(key: string): { value: V; at: number } | undefined;
  set(key: string, kept: { value: V; at: number }): unknown;
  delete(key: string): unknown;
  clear(): void;
}

/**
 * Values of one process kept in memory and dropped when a commit of any process changes what they
 * were read from: the cache declares the event types and change subjects that invalidate it
 * (`invalidatedBy`), every unit of work broadcasts what each commit changed (`publishChanges`),
 * and the cache drops the keys each change names, or everything.
 *
 * - A value asked before an invalidation and answered after it is never stored (the generation
 *   check): it may be the state before the change.
 * - No entry lives longer than `maxAgeMs`, which bounds what a lost broadcast could leave.
 * - A disconnect or reconnect drops everything (broadcasts sent meanwhile are lost). With
 *   `onlyWhileSubscribed`, nothing is kept or served at all from a disconnect until the server has
 *   confirmed the (re-)subscription, nor before the first confirmation.
 */
export class BroadcastCache<V> {
  /** The kept values, at most `maxEntries`: the least recently used goes first. */
  private readonly entries: KeptValues<V>;
  /** Loads in flight, by key, with the generation each began in. */
  private readonly loading = new Map<string, { generation: number; value: Promise<V> }>();
  private generation = 0;
  private subscribed = false;

  constructor(
    private readonly nc: NatsConnection,
    namespace: string,
    private readonly opts: {
      invalidatedBy: Invalidations;
      maxAgeMs: number;
      maxEntries: number;
      onlyWhileSubscribed: boolean;
      now?: () => number;
    },
  ) {
    this.entries = new LRUCache({ max: opts.maxEntries });
    for (const type of Object.keys(opts.invalidatedBy)) {
      nc.subscribe(changeSubject(namespace, type), { callback: (err, msg) => this.heard(err ? null : msg.string()) });
    }
    let mine = local.get(nc);
    if (!mine) local.set(nc, (mine = new Set()));
    mine.add(this);
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

  /** Drops every value (and makes the loads in flight unkeepable). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  /** Drops what `change` names by this cache's declaration (nothing for a type it did not register). */
  apply(change: Change): void {
    const rule = this.opts.invalidatedBy[change.type];
    if (!rule) return;
    const drop = rule === "all" ? "all" : rule(change);
    if (drop === "all") return this.invalidate();
    if (!drop || drop.length === 0) return;
    // a load in flight for another key began before the change too: it is not kept either (harmless: a miss)
    this.generation++;
    for (const key of drop) {
      this.entries.delete(key);
      this.loading.delete(key);
    }
  }

  /** A broadcast of one type: the changes it carries, or everything when it cannot be read. */
  private heard(payload: string | null): void {
    let changes: unknown;
    try {
      changes = JSON.parse(payload ?? "");
    } catch {
      return this.invalidate();
    }
    if (!Array.isArray(changes)) return this.invalidate();
    for (const c of changes as Change[]) this.apply(c);
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
 * intake's recipients), dropped by every process on the changes `invalidatedBy` declares: values
 * live `maxAgeMs` (1 s), at most 10,000 are kept, and none while the subscription is down. Null
 * without `broadcasts`: the repository then reads every time.
 */
export function changeCache<V>(broadcasts: ChangeBroadcasts | undefined, invalidatedBy: Invalidations): BroadcastCache<V> | null {
  if (!broadcasts) return null;
  return new BroadcastCache<V>(broadcasts.nc, broadcasts.namespace, {
    invalidatedBy,
    maxAgeMs: broadcasts.maxAgeMs ?? 1000,
    maxEntries: 10_000,
    onlyWhileSubscribed: true,
  });
}
