import { RemovedTenantRepository } from "@burnbox/service-kit";
import { DemoQuotaRepository } from "./demo-quota.repository";
import { EmailRepository } from "./email.repository";
import { InboxRepository } from "./inbox.repository";
import type { Client } from "./prisma";
import { ProcessedEventRepository } from "./processed-event.repository";

/** Every repository of the service, bound to the client or to one transaction. */
export const repositories = (db: Client) => ({
  inboxes: new InboxRepository(db),
  emails: new EmailRepository(db),
  demoQuotas: new DemoQuotaRepository(db),
  tenants: new RemovedTenantRepository(db),
  processedEvents: new ProcessedEventRepository(db),
});
export type InboxRepos = ReturnType<typeof repositories>;
