import { randomUUID } from "node:crypto";
import { WEBHOOK_EVENTS, type DomainEvent } from "@burnbox/contracts";
import { claimEvent, startConsumer, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";

/** The delivery body of contract-notes; `summary` is for WebSocket frames, not webhooks. */
export function deliveryBody(deliveryId: string, event: DomainEvent): string {
  const { summary: _summary, ...data } = event.data as Record<string, unknown>;
  return JSON.stringify({ id: deliveryId, event: event.type, timestamp: event.occurred_at, data });
}

/**
 * One durable consumer per webhook event type: in one transaction it claims the event id and
 * schedules one delivery per matching active webhook of the event's team. Sending happens in
 * the delivery worker, so a slow receiver never holds up the stream.
 */
export async function startDispatchConsumers(deps: DispatcherDeps, logger: Logger, onScheduled: () => void): Promise<RunningConsumer[]> {
  return Promise.all(
    WEBHOOK_EVENTS.map((type) => {
      const durable = `webhook-dispatcher-${type.replace(/\./g, "_")}`;
      return startConsumer({
        nc: deps.nc,
        namespace: deps.config.nats.namespace,
        durable,
        eventType: type,
        logger,
        handler: async (event) => {
          if (!event.team_id) return;
          const scheduled = await deps.db.$transaction(async (tx) => {
            if (!(await claimEvent(tx, durable, event.id))) return 0;
            const hooks = await tx.webhook.findMany({
              where: { teamId: event.team_id!, active: true, events: { has: type } },
              select: { id: true },
            });
            if (hooks.length === 0) return 0;
            const now = new Date();
            const rows = hooks.map((h) => {
              const id = randomUUID();
              return { id, webhookId: h.id, eventId: event.id, event: type, body: deliveryBody(id, event), nextAttemptAt: now };
            });
            await tx.delivery.createMany({ data: rows, skipDuplicates: true });
            return rows.length;
          });
          if (scheduled > 0) onScheduled();
        },
      });
    }),
  );
}
