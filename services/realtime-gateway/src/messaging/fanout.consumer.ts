import { randomBytes } from "node:crypto";
import { EventType, subjects } from "@burnbox/contracts";
import { jetstreamManager, startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../domain/deps";
import { closeDeletedInbox } from "../domain/inbox-streams/close-deleted-inbox.use-case";
import { closeExpiredInbox } from "../domain/inbox-streams/close-expired-inbox.use-case";

/**
 * An inbox's end closes its sockets on every replica (its sockets are its own), so each replica
 * has its own durable consumers of `inbox.expired` and `inbox.deleted` (rare events), starting at
 * new messages and removed by the server when the replica has been gone a minute (and by us on a
 * clean stop). The received mail does not come this way: it comes on each watched inbox's live
 * subject, to the replicas holding a socket on it only (`live-inboxes.ts`).
 */
export async function startFanout(deps: RealtimeDeps, logger: Logger): Promise<RunningConsumer[]> {
  const replica = randomBytes(6).toString("hex");
  const { nc, namespace } = deps;
  const common = { nc, namespace, logger, deliverPolicy: "new" as const, inactiveThresholdMs: 60_000, maxDeliver: 3, concurrency: 32 };
  const expired = `realtime-${replica}-expired`;
  const deleted = `realtime-${replica}-deleted`;
  const consumers = await Promise.all([
    startConsumer({
      ...common,
      durable: expired,
      eventType: EventType.inboxExpired,
      handler: (event) => Promise.resolve(closeExpiredInbox(deps, event)),
    }),
    startConsumer({
      ...common,
      durable: deleted,
      eventType: EventType.inboxDeleted,
      handler: (event) => Promise.resolve(closeDeletedInbox(deps, event)),
    }),
  ]);
  // one entry: the two stop together, then their durables go (they are this replica's alone)
  return [
    {
      stop: async () => {
        await Promise.all(consumers.map((c) => c.stop()));
        const jsm = await jetstreamManager(nc);
        await Promise.all([expired, deleted].map((n) => jsm.consumers.delete(subjects(namespace).stream, n).catch(() => false)));
      },
    },
  ];
}
