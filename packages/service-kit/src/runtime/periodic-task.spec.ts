import { startPeriodicTask } from "./periodic-task";
import { createLogger } from "../core/logger";

const logger = createLogger({ level: "silent", service: "test" });

describe("startPeriodicTask", () => {
  it("when a run is in progress, then runNow waits for it and another run follows, never two at once", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const task = startPeriodicTask({
      name: "t",
      intervalMs: 60_000,
      logger,
      run: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs++;
        if (runs === 1) await gate;
        active--;
      },
    });
    const first = task.runNow();
    const second = task.runNow();
    release();
    await Promise.all([first, second]);
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    await task.stop();
  });

  it("when a run fails, then the error is logged and the next run still happens", async () => {
    let runs = 0;
    const task = startPeriodicTask({
      name: "t",
      intervalMs: 60_000,
      logger,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error("boom");
      },
    });
    await task.runNow();
    await task.runNow();
    expect(runs).toBe(2);
    await task.stop();
  });

  it("when the interval passes, then the task runs by itself within interval plus jitter", async () => {
    jest.useFakeTimers();
    try {
      let runs = 0;
      const task = startPeriodicTask({ name: "t", intervalMs: 1000, jitter: 0.5, random: () => 1, logger, run: async () => void runs++ });
      await jest.advanceTimersByTimeAsync(1499);
      expect(runs).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(runs).toBe(1);
      await task.stop();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(runs).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
