import type { Logger } from "../core/logger";
import type { RunningConsumer } from "./consumer";

/**
 * The one shape of a service's event-consumer start function: the service's deps and the logger,
 * and the consumers it started (a list, even of one, so the caller stops them together).
 */
export type StartConsumers<Deps> = (deps: Deps, logger: Logger) => Promise<RunningConsumer[]>;

/**
 * Starts each of a service's consumer groups in order and returns every consumer started; when
 * one fails to start, the ones already running are stopped before the error is thrown.
 */
export async function startConsumers<Deps>(
  deps: Deps,
  logger: Logger,
  starters: ReadonlyArray<StartConsumers<Deps>>,
): Promise<RunningConsumer[]> {
  const running: RunningConsumer[] = [];
  try {
    for (const start of starters) running.push(...(await start(deps, logger)));
  } catch (err) {
    await Promise.allSettled(running.map((c) => c.stop()));
    throw err;
  }
  return running;
}
