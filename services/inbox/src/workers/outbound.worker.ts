import { parseDurationMs } from "@burnbox/contracts";
import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import { deliverOutbound, type DeliveryDeps } from "../domain/outbound/deliver-outbound.use-case";

/**
 * Mail out's queue (extensions 10): every `outbound.poll_interval`, and at once when this process
 * queued a message, passes over the queue until nothing is due. Safe with many replicas: each
 * message is claimed by one (see deliver-outbound.use-case.ts).
 */
export function startOutboundWorker(deps: InboxDeps, dd: Omit<DeliveryDeps, "logger">, logger: Logger): PeriodicTask {
  const task = startPeriodicTask({
    name: "inbox-outbound",
    intervalMs: parseDurationMs(deps.config.outbound.poll_interval),
    immediate: true,
    logger,
    run: async () => {
      while ((await deliverOutbound(deps, { ...dd, logger })) > 0) {
        /* the next batch */
      }
    },
  });
  deps.outboundWake = () => void task.runNow();
  return task;
}
