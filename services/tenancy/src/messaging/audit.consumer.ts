import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { recordAuditEntry } from "../domain/audit/record-audit-entry.use-case";

/** One durable shared by every replica: each audit event is stored by one of them, once. */
export const AUDIT_CONSUMER = "tenancy-audit";

/** The audit log's only writer: every service's `audit.recorded` events. */
export async function startAuditConsumer(deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  return [
    await startConsumer({
      nc,
      namespace: deps.config.nats.namespace,
      durable: AUDIT_CONSUMER,
      eventType: EventType.auditRecorded,
      logger,
      concurrency: 16,
      handler: async (event) => {
        await recordAuditEntry(deps, event);
      },
    }),
  ];
}
