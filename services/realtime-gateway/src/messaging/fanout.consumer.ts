import { randomBytes } from "node:crypto";
import { EventType, subjects } from "@burnbox/contracts";
import { jetstreamManager, startConsumer, type Logger, type NatsConnection, type RunningConsumer } from "@burnbox/service-kit";
import type { Hub } from "../domain/hub";

/**
 * Every replica must see every event (its sockets are its own), so each replica has its own
 * durable consumers, starting at new messages and removed by the server when the replica has
 * been gone a minute (and by us on a clean stop).
 */
export async function startFanout(nc: NatsConnection, namespace: string, hub: Hub, logger: Logger): Promise<RunningConsumer> {
  const replica = randomBytes(6).toString("hex");
  const common = { nc, namespace, logger, deliverPolicy: "new" as const, inactiveThresholdMs: 60_000, maxDeliver: 3, concurrency: 32 };
  const names = [`realtime-${replica}-email`, `realtime-${replica}-expired`];
  const received = await startConsumer({
    ...common,
    durable: names[0]!,
    eventType: EventType.emailReceived,
    handler: (event) => {
      if (event.type !== EventType.emailReceived) return Promise.resolve();
      const d = event.data;
      const summary = d.summary ?? {
        id: d.email_id,
        inbox_id: d.inbox_id,
        from_address: d.from,
        subject: d.subject,
        received_at: d.received_at,
      };
      hub.send(d.inbox_id, { type: EventType.emailReceived, data: summary });
      return Promise.resolve();
    },
  });
  const expired = await startConsumer({
    ...common,
    durable: names[1]!,
    eventType: EventType.inboxExpired,
    handler: (event) => {
      if (event.type !== EventType.inboxExpired) return Promise.resolve();
      hub.send(event.data.inbox_id, {
        type: EventType.inboxExpired,
        data: { inbox_id: event.data.inbox_id, expired_at: event.data.expired_at },
      });
      hub.closeInbox(event.data.inbox_id, 1000, "inbox expired");
      return Promise.resolve();
    },
  });
  return {
    stop: async () => {
      await Promise.all([received.stop(), expired.stop()]);
      const jsm = await jetstreamManager(nc);
      await Promise.all(names.map((n) => jsm.consumers.delete(subjects(namespace).stream, n).catch(() => false)));
    },
  };
}
