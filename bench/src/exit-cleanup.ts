/**
 * What a benchmark starts that outlives it unless stopped: its PostgreSQL cluster (pg_ctl detaches
 * it), a detached rspamd, and, when the benchmark is ended by a signal sent to it alone (`kill`,
 * `timeout`, a supervisor) rather than by a terminal's Ctrl-C, which reaches its whole process
 * group, its NATS and Redis too. Each is registered as it starts (`stopOnExit`); on SIGINT, SIGTERM,
 * an uncaught error or main's failure (`exitAfterFailure`) every registered stop runs, newest first,
 * then the process exits.
 */
const stops: Array<{ what: string; stop: () => unknown }> = [];
let exiting = false;

/** Runs every registered stop once, newest first; a stop that fails does not keep the others from running. */
async function stopAll(): Promise<void> {
  while (stops.length) {
    const { what, stop } = stops.at(-1)!;
    try {
      await stop();
    } catch (err) {
      process.stderr.write(`stopping ${what}: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

async function exitWith(code: number, why: string, signal = false): Promise<void> {
  if (exiting) {
    // a second signal while stopping: out at once; a failure meanwhile (the load cut off by the
    // stopping) does not cut the stopping short
    if (signal) process.exit(code);
    return;
  }
  exiting = true;
  process.stderr.write(`${why}: stopping what the benchmark started\n`);
  // bounded: a stop that hangs does not keep the benchmark alive
  await Promise.race([stopAll(), new Promise((r) => setTimeout(r, 60_000).unref())]);
  process.exit(code);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  process.on("SIGINT", () => void exitWith(130, "SIGINT", true));
  process.on("SIGTERM", () => void exitWith(143, "SIGTERM", true));
  const failed = (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    void exitWith(1, "uncaught error");
  };
  process.on("uncaughtException", failed);
  process.on("unhandledRejection", failed);
}

/**
 * Registers `stop` (of `what`, named when it fails) for a signal or a failure. The function
 * returned runs it once (the benchmark's own `finally`) and gives every later call the first
 * call's result: a `finally` reached while a signal's cleanup is stopping the same thing waits for
 * that stop (and stops what comes after it only then) instead of racing it.
 */
export function stopOnExit<T>(what: string, stop: () => T): () => T {
  install();
  let result: { value: T } | null = null;
  const entry = {
    what,
    stop: (): T => {
      if (!result) {
        stops.splice(stops.indexOf(entry), 1);
        result = { value: stop() };
      }
      return result.value;
    },
  };
  stops.push(entry);
  return entry.stop;
}

/** main's `.catch`: the error printed, everything registered stopped, exit 1. */
export function exitAfterFailure(err: unknown): void {
  // once a signal is stopping everything, the load's failure is its doing, not news
  if (!exiting) process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  void exitWith(1, "failed");
}
