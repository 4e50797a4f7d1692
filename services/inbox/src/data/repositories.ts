import { RemovedTenantRepository, type PoolSql } from "@burnbox/service-kit";
import { DemoQuotaRepository } from "./demo-quota.repository";
import { EmailRepository } from "./email.repository";
import { InboxRepository } from "./inbox.repository";
import type { IntakeRepository } from "./intake.repository";
import type { Client } from "./prisma";
import { ProcessedEventRepository } from "./processed-event.repository";

/**
 * Every repository of the service, bound to the client or to one transaction; `intake` (the SMTP
 * intake's statements, group-committed on the pg pool) is one per process, whatever the binding.
 */
export const repositories = (db: Client, intake: IntakeRepository, sql?: PoolSql) => ({
  inboxes: new InboxRepository(db, sql),
  emails: new EmailRepository(db),
  demoQuotas: new DemoQuotaRepository(db),
  tenants: new RemovedTenantRepository(db),
  processedEvents: new ProcessedEventRepository(db),
  intake,
});
export type InboxRepos = ReturnType<typeof repositories>;
