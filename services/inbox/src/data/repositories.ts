import { DemoQuotaRepository } from "./demo-quota.repository";
import { EmailRepository } from "./email.repository";
import { InboxRepository } from "./inbox.repository";
import type { Client } from "./prisma";

/** Every repository of the service, bound to the client or to one transaction. */
export const repositories = (db: Client) => ({
  inboxes: new InboxRepository(db),
  emails: new EmailRepository(db),
  demoQuotas: new DemoQuotaRepository(db),
});
export type InboxRepos = ReturnType<typeof repositories>;
