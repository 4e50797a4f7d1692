/** Anything a service starts and must stop on its way down (a server, consumers, a worker, a relay, a client). */
export interface Stoppable {
  stop(): void | Promise<void>;
}

/**
 * What a service started, in the order it started it: `add` each thing (or the list one call
 * started) as it comes up, and `stop()` stops them in the reverse order, so what takes work in
 * (the server, last up) stops before what that work needs (consumers, settings, the relay, the
 * client, first up). A list added in one call stops together. Every entry is stopped even when
 * one fails; the first failure is thrown after the rest. `stop()` runs once: a second call
 * returns the same promise.
 */
export class StopList {
  private readonly entries: Stoppable[][] = [];
  private stopping: Promise<void> | undefined;

  add<T extends Stoppable | readonly Stoppable[]>(started: T): T {
    if (this.stopping) throw new Error("StopList: added after stop()");
    this.entries.push(Array.isArray(started) ? [...(started as readonly Stoppable[])] : [started as Stoppable]);
    return started;
  }

  /** A step that is not a started thing (close a client, drop a hook), in the same order. */
  addStep(stop: () => void | Promise<void>): void {
    this.add({ stop });
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const group of [...this.entries].reverse()) {
      const results = await Promise.allSettled(group.map(async (s) => s.stop()));
      for (const r of results) if (r.status === "rejected") failures.push(r.reason);
    }
    if (failures.length > 0) throw failures[0];
  }
}
