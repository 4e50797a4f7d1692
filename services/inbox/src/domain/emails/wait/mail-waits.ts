import type { TeamScope } from "@burnbox/service-kit/data";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { EmailRow, WaitColumns } from "../../../data/email.repository";

/** A wait held in this process, as the fan-out sees it. */
export interface HeldWait {
  inboxId: string;
  /** The inbox's tenant: the wake's query is scoped by it. */
  scope: TeamScope;
  /** What its matchers read of an email (a wake reads what any wait on the inbox needs). */
  columns: WaitColumns;
  /** New mail of the inbox (loaded once for every wait held on it). */
  offer(rows: readonly EmailRow[]): void;
  /** The inbox was deleted or has expired. */
  gone(reason: "deleted" | "expired"): void;
  /** The process drains: answer with what matched so far. */
  drain(): void;
  /**
   * Reads the store again as the wait's first read did (the inbox gone: ends it): after a NATS
   * reconnect, a wake sent while the connection was down never came.
   */
  recheck(): Promise<void>;
}

/** How many waits re-read the store at once after a reconnect (the pool serves requests meanwhile). */
const RECHECK_CONCURRENCY = 4;

/**
 * Where the wakes of an inbox come from: `watch` when the inbox gets its first wait here
 * (resolving once they reach this process; never rejecting), `unwatch` when its last ends.
 */
export interface WakeSource {
  watch(inboxId: string): Promise<void>;
  unwatch(inboxId: string): void;
}

/**
 * The waits held in one process, by inbox. The wakes feed it: each inbox's own `email.received`
 * subscription while a wait is held on it (`WakeSource`), and one subscription per process to
 * `inbox.deleted` and `inbox.expired`; a mail wakes only the waits on its inbox, and the new rows
 * are read once per wake for all of them, never while nothing arrives.
 */
export class MailWaits {
  private readonly byInbox = new Map<string, Set<HeldWait>>();
  /** Email ids announced for an inbox and not read yet. */
  private readonly pending = new Map<string, Set<string>>();
  private readonly loading = new Set<string>();
  /** Per inbox with a wait held: resolves once its wakes reach this process. */
  private readonly listening = new Map<string, Promise<void>>();
  private wakes: WakeSource | null = null;

  constructor(
    private readonly load: (scope: TeamScope, inboxId: string, ids: readonly string[], columns: WaitColumns) => Promise<EmailRow[]>,
    private readonly logger: Logger,
  ) {}

  /** Where the inboxes' wakes come from (the wait wakes' subscriptions); none: `ready` resolves at once. */
  wakeFrom(source: WakeSource): void {
    this.wakes = source;
  }

  /**
   * Resolves once the mail wakes of `inboxId` reach this process: a wait held before its first
   * read awaits it, so that mail committed after that read's snapshot still wakes it.
   */
  ready(inboxId: string): Promise<void> {
    return this.listening.get(inboxId) ?? Promise.resolve();
  }

  /** Whether this process holds any wait at all. */
  get holdsAny(): boolean {
    return this.byInbox.size > 0;
  }

  /** How many waits this process holds. */
  get size(): number {
    let n = 0;
    for (const set of this.byInbox.values()) n += set.size;
    return n;
  }

  /** Holds `wait` until the returned function removes it. */
  add(wait: HeldWait): () => void {
    let set = this.byInbox.get(wait.inboxId);
    if (!set) {
      set = new Set();
      this.byInbox.set(wait.inboxId, set);
      if (this.wakes) this.listening.set(wait.inboxId, this.wakes.watch(wait.inboxId));
    }
    set.add(wait);
    return () => {
      const held = this.byInbox.get(wait.inboxId);
      if (!held?.delete(wait) || held.size > 0) return;
      this.byInbox.delete(wait.inboxId);
      this.listening.delete(wait.inboxId);
      this.wakes?.unwatch(wait.inboxId);
    };
  }

  /** An email was stored in `inboxId` (by any intake): the waits on it read it, once. */
  mailArrived(inboxId: string, emailId: string): void {
    if (!this.byInbox.has(inboxId)) return;
    let ids = this.pending.get(inboxId);
    if (!ids) {
      ids = new Set();
      this.pending.set(inboxId, ids);
    }
    ids.add(emailId);
    if (!this.loading.has(inboxId)) void this.wake(inboxId);
  }

  /** Reads the announced mail of an inbox in one query per round (what arrives meanwhile goes in the next). */
  private async wake(inboxId: string): Promise<void> {
    this.loading.add(inboxId);
    try {
      for (let ids = this.pending.get(inboxId); ids; ids = this.pending.get(inboxId)) {
        this.pending.delete(inboxId);
        const held = [...(this.byInbox.get(inboxId) ?? [])];
        const first = held[0];
        if (!first) return;
        const columns: WaitColumns = { bodies: held.some((w) => w.columns.bodies), headers: held.some((w) => w.columns.headers) };
        let rows: EmailRow[];
        try {
          rows = await this.load(first.scope, inboxId, [...ids], columns);
        } catch (err) {
          this.logger.warn({ err, inbox_id: inboxId }, "could not read new mail for the waits on an inbox");
          continue;
        }
        for (const wait of this.byInbox.get(inboxId) ?? []) wait.offer(rows);
      }
    } finally {
      this.loading.delete(inboxId);
      this.pending.delete(inboxId);
    }
  }

  inboxGone(inboxId: string, reason: "deleted" | "expired"): void {
    for (const wait of [...(this.byInbox.get(inboxId) ?? [])]) wait.gone(reason);
  }

  /**
   * Every held wait reads the store once more (after the wake subscription was down: a NATS
   * reconnect), a few at a time. Resolves when all have; a failed read is logged and the wait
   * stays held (its timeout still ends it).
   */
  async recheckAll(): Promise<void> {
    const queue = [...this.byInbox.values()].flatMap((set) => [...set]);
    if (queue.length === 0) return;
    this.logger.info({ waits: queue.length }, "re-reading the store for the held waits (wakes may have been missed)");
    const worker = async () => {
      for (let wait = queue.shift(); wait; wait = queue.shift()) {
        try {
          await wait.recheck();
        } catch (err) {
          this.logger.warn({ err, inbox_id: wait.inboxId }, "could not re-read the store for a held wait");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECHECK_CONCURRENCY, queue.length) }, worker));
  }

  /** Answers every held wait (the process is shutting down). */
  drainAll(): void {
    for (const set of [...this.byInbox.values()]) for (const wait of [...set]) wait.drain();
  }
}
