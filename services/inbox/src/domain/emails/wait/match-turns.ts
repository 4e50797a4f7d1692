import { errors } from "@burnbox/service-kit/runtime";

/**
 * The CPU one wait may spend matching, over its first read and every wake. `stop()` (the wait
 * has answered) drops what it still had queued.
 */
export class MatchBudget {
  spentMs = 0;
  stopped = false;

  constructor(readonly limitMs: number) {}

  stop(): void {
    this.stopped = true;
  }

  get spent(): boolean {
    return this.spentMs > this.limitMs;
  }
}

/** The 400 of a wait whose matching spent its budget. */
export const budgetSpent = (limitMs: number) =>
  errors.validation(
    `the wait's matchers spent more than ${limitMs / 1000} s of CPU on this inbox's mail: narrow it with since, subject or header, or a simpler pattern`,
  );

interface Job {
  items: readonly unknown[];
  next: number;
  test: (item: unknown) => boolean;
  passed: unknown[];
  budget: MatchBudget;
  resolve: (passed: unknown[]) => void;
  reject: (err: Error) => void;
}

/**
 * Where every wait of a process matches its emails: in turns on the event loop, one email at a
 * time, the waits taking turns (round robin), and never more than `sliceMs` of matching before
 * the loop serves everything else (see `schedule`). However many waits match at once, another
 * request waits at most one slice and one email's matching (bounded by the pattern bounds and the
 * 64 KiB cut: tens of ms at worst). A worker thread would keep even that off the loop, at the cost
 * of copying every body to it and of a second entry point per deployable; the bounds make it
 * unnecessary.
 */
export class MatchTurns {
  private readonly jobs: Job[] = [];
  private scheduled = false;

  constructor(
    private readonly sliceMs = 5,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** How many waits have emails queued for matching. */
  get queued(): number {
    return this.jobs.length;
  }

  /**
   * The items that pass `test`, in their order, once each was tested in a turn. Rejects with the
   * 400 of `budgetSpent` once the budget is spent; resolves with what passed so far once stopped.
   */
  filter<T>(items: readonly T[], test: (item: T) => boolean, budget: MatchBudget): Promise<T[]> {
    if (budget.spent) return Promise.reject(budgetSpent(budget.limitMs));
    if (items.length === 0 || budget.stopped) return Promise.resolve([]);
    return new Promise<T[]>((resolve, reject) => {
      this.jobs.push({
        items,
        next: 0,
        test: test as (item: unknown) => boolean,
        passed: [],
        budget,
        resolve: resolve as (passed: unknown[]) => void,
        reject,
      });
      this.schedule();
    });
  }

  /**
   * The next turn: at once (after the loop's pending I/O) when the last one was short; after a
   * turn of d ms, only d ms later (at most 50), so matching takes at most about half of a busy
   * loop and a request that came in meanwhile goes through all its steps (its reads, its answer)
   * before the next turn, rather than waiting a turn at each.
   */
  private schedule(lastMs = 0): void {
    if (this.scheduled || this.jobs.length === 0) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      this.turn();
    };
    if (lastMs < 1) setImmediate(go);
    else setTimeout(go, Math.min(Math.ceil(lastMs), 50));
  }

  private turn(): void {
    const start = this.clock();
    while (this.jobs.length > 0 && this.clock() - start < this.sliceMs) {
      const job = this.jobs.shift()!;
      if (job.budget.stopped) {
        job.resolve(job.passed);
        continue;
      }
      const t0 = this.clock();
      let passed: boolean;
      try {
        passed = job.test(job.items[job.next]);
      } catch (err) {
        job.reject(err as Error);
        continue;
      }
      job.budget.spentMs += this.clock() - t0;
      if (passed) job.passed.push(job.items[job.next]);
      job.next += 1;
      if (job.budget.spent) job.reject(budgetSpent(job.budget.limitMs));
      else if (job.next >= job.items.length) job.resolve(job.passed);
      // the others go first
      else this.jobs.push(job);
    }
    this.schedule(this.clock() - start);
  }
}
