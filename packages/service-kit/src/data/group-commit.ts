/**
 * Group commit: items submitted while a write is in flight are queued and written together by the
 * next write, at most `maxBatch` at a time. By default there is no timer: an item submitted while
 * nothing is in flight is written at once, so an idle service adds no latency, and a busy one
 * writes as many items per round trip as arrived during the previous one (the SMTP intake's
 * messages). With `lingerMs`, that first item waits a little for others (tenancy's analytics
 * counts, the notifications: writes nobody waits on).
 *
 * `write(batch)` is one atomic statement that either commits and returns, for each item, its
 * result or the error refusing that item alone (nothing of it was written), or throws having
 * written nothing. When a batch of several items throws, each item is retried alone, so one bad
 * item does not fail the others; only its own retry's error reaches its submitter. (A read, such
 * as several lookups in one statement, is the same with nothing to commit.)
 */
export interface GroupCommit<T, R = null> {
  /** Resolves with the item's result once its statement committed; rejects with its refusal or its statement's error. */
  submit(item: T): Promise<R>;
  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void>;
}

export type BatchWrite<T, R = null> = (batch: T[]) => Promise<Array<R | Error>>;

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(err: unknown): void;
}

export function startGroupCommit<T, R = null>(opts: {
  write: BatchWrite<T, R>;
  maxBatch: number;
  /** With `maxWeight`: a batch takes no item that brings its weight past maxWeight (the first always goes). */
  weigh?: (item: T) => number;
  maxWeight?: number;
  /** Runs after every write that committed at least one item, with those items (e.g. to hand their outbox rows to the relay). */
  afterCommit?: (committed: T[]) => void;
  /**
   * An item submitted while nothing is queued or in flight waits up to this long (or until
   * `maxBatch` wait) for others to go with it; 0 (the default) writes it at once. For writes no
   * one waits on (a consumer's counters, its notifications): at the few messages a second between
   * two statements a busy system sees, each statement otherwise commits one item, and its round
   * trip, commit and wakeups are most of the item's cost.
   */
  lingerMs?: number;
}): GroupCommit<T, R> {
  if (opts.maxBatch < 1) throw new Error("maxBatch must be at least 1");
  const queue: Array<Pending<T, R>> = [];
  let draining: Promise<void> | null = null;
  const lingerMs = opts.lingerMs ?? 0;
  /** The linger of the first item that found the queue idle, and what `idle()` waits on meanwhile. */
  let lingering: { timer: NodeJS.Timeout; done: Promise<void>; end(): void } | null = null;

  /** Writes `batch` once and settles each item with its outcome; throws (settling none) when the statement fails. */
  async function writeSettling(batch: Array<Pending<T, R>>): Promise<void> {
    const outcomes = await opts.write(batch.map((p) => p.item));
    if (outcomes.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${outcomes.length} outcomes`);
    const committed = batch.filter((_, i) => !(outcomes[i] instanceof Error)).map((p) => p.item);
    if (committed.length > 0) opts.afterCommit?.(committed);
    // settled after that, so the events are already on their way when the sender hears 250
    batch.forEach((p, i) => {
      const outcome = outcomes[i] as R | Error;
      if (outcome instanceof Error) p.reject(outcome);
      else p.resolve(outcome);
    });
  }

  async function writeBatch(batch: Array<Pending<T, R>>): Promise<void> {
    try {
      await writeSettling(batch);
    } catch (err) {
      if (batch.length === 1) {
        (batch[0] as Pending<T, R>).reject(err);
        return;
      }
      // one item may have failed the whole statement: each alone, so only that one is refused
      for (const p of batch) {
        try {
          await writeSettling([p]);
        } catch (itemErr) {
          p.reject(itemErr);
        }
      }
    }
  }

  /** The next batch: at most maxBatch items, and no more than maxWeight unless it is the first. */
  function nextBatch(): Array<Pending<T, R>> {
    if (!opts.weigh || opts.maxWeight === undefined) return queue.splice(0, opts.maxBatch);
    let n = 0;
    let weight = 0;
    while (n < queue.length && n < opts.maxBatch) {
      weight += opts.weigh((queue[n] as Pending<T, R>).item);
      if (n > 0 && weight > opts.maxWeight) break;
      n += 1;
    }
    return queue.splice(0, n);
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) await writeBatch(nextBatch());
  }

  /** Starts the drain now, ending a linger if one is on. */
  function startDrain(): void {
    if (lingering) {
      clearTimeout(lingering.timer);
      lingering.end();
      lingering = null;
    }
    kick();
  }

  /** An item arrived: written at once, or (lingerMs, nothing in flight) once the linger ends or the batch is full. */
  function arrived(): void {
    if (draining || lingerMs <= 0) return kick();
    if (queue.length >= opts.maxBatch) return startDrain();
    if (lingering) return;
    let end = () => undefined as void;
    const done = new Promise<void>((resolve) => (end = resolve));
    lingering = { timer: setTimeout(startDrain, lingerMs), done, end };
  }

  function kick(): void {
    if (draining) return;
    draining = drain().finally(() => {
      draining = null;
      // an item submitted after the drain's last look at the queue (its submitter woke from the
      // previous batch's answer before this ran) saw a drain still running: start the next one
      if (queue.length > 0) kick();
    });
  }

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        arrived();
      }),
    idle: async () => {
      while (lingering || draining) await (lingering?.done ?? draining);
    },
  };
}
