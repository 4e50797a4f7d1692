import type { Logger } from "../core/logger";

/**
 * Runs `stop` once on SIGTERM/SIGINT; a second signal or a stop slower than `graceMs`
 * exits at once. main.ts files are the only callers.
 */
export function handleShutdown(logger: Logger, stop: () => Promise<void>, graceMs = 15_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown took too long, exiting");
      process.exit(1);
    }, graceMs).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

/** Prints a startup failure (config errors included) clearly and exits non-zero. */
export function exitOnStartupError(logger: Logger | undefined, err: unknown): never {
  if (logger) logger.fatal({ err }, "failed to start");
  else process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
