import { randomBytes } from "node:crypto";
import { subjects, type EventType } from "@burnbox/contracts";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import { startConsumer } from "./consumer";
import type { Logger } from "../core/logger";

export interface LiveSetting<T> {
  /** The value now: the last one loaded, or `initial` until the first load succeeds. */
  current(): T;
  /** Loads the value again now (what the event does; tests call it too). */
  refresh(): Promise<T>;
  stop(): Promise<void>;
}

export interface LiveSettingOptions<T> {
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  /** Names this replica's consumer (`<name>-<replica>`) and the log lines. */
  name: string;
  /** The event that says the setting changed; it carries no value (never a secret). */
  eventType: EventType;
  /** What applies until the first load succeeds (the service's own configuration). */
  initial: T;
  /** Reads the setting from its owner (an RPC). */
  load: () => Promise<T>;
  /** Called after a load, with the new and the previous value (e.g. to close an old client). */
  onChange?: (value: T, previous: T) => void;
  /** How long the first load may take before the service starts on `initial` and keeps trying. */
  firstLoadTimeoutMs?: number;
}

/**
 * A setting another service owns, kept current on every replica without a restart or a poll:
 * each replica has its own consumer of the change event (new messages only, removed by the server
 * when the replica is gone), and every event reloads the value from its owner. The value is
 * loaded at start too; when the owner does not answer yet, `initial` applies and the load is
 * retried with backoff until it succeeds once. Loads run one at a time, in order.
 */
export async function startLiveSetting<T>(opts: LiveSettingOptions<T>): Promise<LiveSetting<T>> {
  const { nc, namespace, logger, name } = opts;
  let value = opts.initial;
  let loadedOnce = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let chain: Promise<unknown> = Promise.resolve();

  const refresh = (): Promise<T> => {
    const next = chain.then(async () => {
      const loaded = await opts.load();
      const previous = value;
      value = loaded;
      loadedOnce = true;
      opts.onChange?.(loaded, previous);
      return loaded;
    });
    chain = next.catch(() => undefined);
    return next;
  };

  const durable = `${name}-${randomBytes(6).toString("hex")}`;
  // the consumer exists before the first load, so no change between the two is missed
  const consumer = await startConsumer({
    nc,
    namespace,
    logger,
    durable,
    eventType: opts.eventType,
    deliverPolicy: "new",
    inactiveThresholdMs: 60_000,
    // a change must apply in the end: an owner that is down for hours is retried (backoff capped at 60 s)
    maxDeliver: 1000,
    concurrency: 1,
    handler: async () => {
      await refresh();
    },
  });

  const retryFirstLoad = (attempt: number) => {
    if (stopped || loadedOnce) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        refresh().catch((err: unknown) => {
          logger.warn(
            { err: { message: (err as Error).message }, setting: name, attempt },
            "setting not loaded yet; using the configuration",
          );
          retryFirstLoad(attempt + 1);
        });
      },
      Math.min(500 * 2 ** attempt, 30_000),
    );
    retryTimer.unref();
  };

  const first = refresh();
  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), opts.firstLoadTimeoutMs ?? 3000).unref());
  try {
    if ((await Promise.race([first, timeout])) === "timeout") retryFirstLoad(0);
  } catch (err) {
    logger.warn({ err: { message: (err as Error).message }, setting: name }, "setting not loaded at start; using the configuration");
    retryFirstLoad(0);
  }
  first.catch(() => undefined);

  return {
    current: () => value,
    refresh,
    stop: async () => {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await consumer.stop();
      const jsm = await jetstreamManager(nc);
      await jsm.consumers.delete(subjects(namespace).stream, durable).catch(() => false);
    },
  };
}
