import type { Logger } from "../core/logger";
import { pipeline } from "../core/metrics";

export interface PeriodicTask {
  /** Runs the task now (or waits for the run in progress, then runs again); resolves when done. */
  runNow(): Promise<void>;
  /** No new runs; resolves once the run in progress (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * A background job run every `intervalMs` (plus up to `jitter` of it, so replicas do not fire in
 * step). Never re-entrant: a tick that finds a run in progress is skipped. A failing run is
 * logged and the next tick tries again.
 */
export function startPeriodicTask(opts: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: Logger;
  /** Fraction of the interval added at random to each wait; 0.1 by default. */
  jitter?: number;
  /** Run once at start rather than after the first interval. */
  immediate?: boolean;
  random?: () => number;
}): PeriodicTask {
  const jitter = opts.jitter ?? 0.1;
  const random = opts.random ?? Math.random;
  let current: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const once = (): Promise<void> => {
    if (current) return current;
    const end = pipeline.workerDuration.startTimer({ task: opts.name });
    current = opts
      .run()
      .then(
        () => {
          end();
          pipeline.workerRuns.inc({ task: opts.name, outcome: "ok" });
        },
        (err: unknown) => {
          end();
          pipeline.workerRuns.inc({ task: opts.name, outcome: "error" });
          opts.logger.warn({ err, task: opts.name }, "periodic task failed; will retry");
        },
      )
      .finally(() => {
        current = null;
      });
    return current;
  };

  const schedule = () => {
    if (stopped) return;
    const wait = opts.intervalMs * (1 + jitter * random());
    timer = setTimeout(() => void once().finally(schedule), wait);
    timer.unref();
  };

  if (opts.immediate) void once().finally(schedule);
  else schedule();

  return {
    runNow: () => {
      const inProgress = current;
      return inProgress ? inProgress.then(once) : once();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
