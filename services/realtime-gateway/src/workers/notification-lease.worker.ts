import { startPeriodicTask, type Logger, type PeriodicTask } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../domain/deps";

/** Renews the leases of this replica's notification sockets three times per lease, so open ones never lapse. */
export function startNotificationLeaseRenewal(deps: RealtimeDeps, logger: Logger): PeriodicTask {
  const { repo, leases, leaseMs } = deps.notificationSockets;
  return startPeriodicTask({
    name: "notification-socket-leases",
    intervalMs: Math.max(1000, Math.floor(leaseMs / 3)),
    jitter: 0,
    logger,
    run: () =>
      repo.renew(
        [...leases].map(([socketId, userId]) => ({ socketId, userId })),
        { now: Date.now(), leaseMs },
      ),
  });
}
