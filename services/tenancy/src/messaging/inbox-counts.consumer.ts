import type { NatsConnection } from "@burnbox/service-kit";
import { EventType } from "@burnbox/contracts";
import { claimEvent, startConsumer, type Logger, type RunningConsumer } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";

const domainOf = (fullAddress: string): string => fullAddress.slice(fullAddress.lastIndexOf("@") + 1).toLowerCase();

/** Keeps the teams' and domains' inbox counters current from the inbox service's events. */
export async function startInboxCountConsumers(nc: NatsConnection, deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const ns = deps.config.nats.namespace;
  const created = await startConsumer({
    nc,
    namespace: ns,
    durable: "tenancy-inbox-created",
    eventType: EventType.inboxCreated,
    logger,
    handler: async (event) => {
      if (event.type !== EventType.inboxCreated) return;
      await deps.db.$transaction(async (tx) => {
        if (!(await claimEvent(tx, "tenancy-inbox-created", event.id))) return;
        await tx.team.updateMany({ where: { id: event.data.team_id }, data: { activeInboxes: { increment: 1 } } });
        await tx.domain.updateMany({
          where: { domainName: domainOf(event.data.full_address) },
          data: { activeInboxes: { increment: 1 }, totalInboxes: { increment: 1 } },
        });
      });
    },
  });
  const expired = await startConsumer({
    nc,
    namespace: ns,
    durable: "tenancy-inbox-expired",
    eventType: EventType.inboxExpired,
    logger,
    handler: async (event) => {
      if (event.type !== EventType.inboxExpired) return;
      await deps.db.$transaction(async (tx) => {
        if (!(await claimEvent(tx, "tenancy-inbox-expired", event.id))) return;
        await tx.team.updateMany({
          where: { id: event.data.team_id, activeInboxes: { gt: 0 } },
          data: { activeInboxes: { decrement: 1 } },
        });
        await tx.domain.updateMany({
          where: { domainName: domainOf(event.data.full_address), activeInboxes: { gt: 0 } },
          data: { activeInboxes: { decrement: 1 } },
        });
      });
    },
  });
  return [created, expired];
}
