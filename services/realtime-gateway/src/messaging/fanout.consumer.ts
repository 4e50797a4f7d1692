import { randomBytes } from "node:crypto";
import { EventType, subjects } from "@burnbox/contracts";
import { jetstreamManager, startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { RealtimeDeps } from "../domain/deps";
import { closeDeletedInbox } from "../domain/inbox-streams/close-deleted-inbox.use-case";
import { closeExpiredInbox } from "../domain/inbox-streams/close-expired-inbox.use-case";
import { pushReceivedEmail } from "../domain/inbox-streams/push-received-email.use-case";

/** The inbox a received email's raw event names ("" when it names none: no socket has that key). */
function inboxOf(raw: unknown): string {
  const data = (raw as { data?: { inbox_id?: unknown } } | null)?.data;
  return typeof data?.inbox_id === "string" ? data.inbox_id : "";
}

/**
 * Every replica must see every event (its sockets are its own), so each replica has its own
 * durable consumers, starting at new messages and removed by the server when the replica has
 * been gone a minute (and by us on a clean stop). A live frame is sent once or not at all (a
 * client that missed one resumes from its last id, which the stream's replay serves), so these
 * consumers keep no acks; and a received email whose inbox has no socket here is dropped before
 * its schema is checked: with no one watching, the stream costs a delivery and a JSON parse.
 */
export async function startFanout(deps: RealtimeDeps, logger: Logger): Promise<RunningConsumer[]> {
  const replica = randomBytes(6).toString("hex");
  const { nc, namespace } = deps;
  const common = { nc, namespace, logger, deliverPolicy: "new" as const, inactiveThresholdMs: 60_000, maxDeliver: 3, concurrency: 32 };
  const email = `realtime-${replica}-email`;
  const expired = `realtime-${replica}-expired`;
  const deleted = `realtime-${replica}-deleted`;
  const consumers = await Promise.all([
    startConsumer({
      ...common,
      durable: email,
      eventType: EventType.emailReceived,
      ack: "none",
      wanted: (raw) => deps.hub.count(inboxOf(raw)) > 0,
      handler: (event) => Promise.resolve(pushReceivedEmail(deps, event)),
    }),
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
  // one entry: the three stop together, then their durables go (they are this replica's alone)
  return [
    {
      stop: async () => {
        await Promise.all(consumers.map((c) => c.stop()));
        const jsm = await jetstreamManager(nc);
        await Promise.all([email, expired, deleted].map((n) => jsm.consumers.delete(subjects(namespace).stream, n).catch(() => false)));
      },
    },
  ];
}
