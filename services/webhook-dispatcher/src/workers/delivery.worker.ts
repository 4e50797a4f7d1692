import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger } from "@burnbox/service-kit/runtime";
import type { ClaimedDelivery } from "../data/delivery-queue.repository";
import { attemptDelivery } from "../domain/deliveries/attempt-delivery.use-case";
import { pickDue } from "../domain/deliveries/pick-due";
import type { DispatcherDeps } from "../domain/deps";

export interface DeliveryWorker {
  /** Polls now (an event was just scheduled, or a slot freed); coalesces with a poll in progress. */
  kick(): void;
  /** Polls now and resolves when the poll (not the attempts it started) is done. */
  runNow(): Promise<void>;
  /** No new polls; resolves once the attempts in flight have finished. */
  stop(): Promise<void>;
}

/**
 * Sends due deliveries. Schedules are rows (status pending, next_attempt_at), so they survive
 * restarts; a claim pushes next_attempt_at past the attempt's timeout (a lease), so a delivery
 * whose sender died becomes due again, and claims skip rows locked by another replica, so each is
 * exclusive across replicas without them waiting on each other. Concurrency is bounded overall
 * and per webhook. Polls run every `delivery.poll_interval` and on every kick.
 */
export function startDeliveryWorker(deps: DispatcherDeps, logger: Logger): DeliveryWorker {
  const cfg = deps.config.delivery;
  const leaseMs = parseDurationMs(deps.config.defaults.webhook_timeout) + 30_000;
  const perHook = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    const candidates = await deps.data.hot.deliveries.due(new Date(deps.now()), limit * 4);
    const picked = pickDue(candidates, { limit, perWebhookLimit: cfg.per_webhook_concurrency, inFlight: perHook });
    return deps.data.hot.deliveries.claim(picked, leaseMs);
  }

  function start(d: ClaimedDelivery): void {
    perHook.set(d.webhookId, (perHook.get(d.webhookId) ?? 0) + 1);
    const p = attemptDelivery(deps, d)
      .then((r) => {
        if (r && !r.success) {
          logger.warn(
            {
              delivery_id: d.id,
              webhook_id: d.webhookId,
              attempt: d.attempts,
              status: r.responseStatus,
              error: r.error,
              final: r.outcome.status === "failed",
            },
            "webhook attempt failed",
          );
        }
      })
      .catch((err: unknown) => logger.error({ err, delivery_id: d.id }, "delivery attempt crashed; it will be retried after its lease"))
      .finally(() => {
        inFlight.delete(p);
        const n = (perHook.get(d.webhookId) ?? 1) - 1;
        if (n <= 0) perHook.delete(d.webhookId);
        else perHook.set(d.webhookId, n);
        kick();
      });
    inFlight.add(p);
  }

  /** Claims as many due deliveries as there are free slots, and starts them. */
  async function poll(): Promise<void> {
    for (;;) {
      const free = cfg.concurrency - inFlight.size;
      if (stopped || free <= 0) return;
      const claimed = await claim(free);
      claimed.forEach(start);
      if (claimed.length < free) return;
    }
  }

  const task = startPeriodicTask({
    name: "webhook_delivery",
    intervalMs: parseDurationMs(cfg.poll_interval),
    run: poll,
    logger,
    immediate: true,
  });

  function kick(): void {
    if (!stopped) void task.runNow();
  }

  return {
    kick,
    runNow: () => task.runNow(),
    stop: async () => {
      stopped = true;
      await task.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
