import { ProcessedEventRepository, poolSql, type PgPool } from "@burnbox/service-kit/data";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import { RemovedTenantRepository } from "@burnbox/tenant-removal";
import { DemoQuotaRepository } from "./demo-quota.repository";
import { EmailRepository, EmailWaitRepository } from "./email.repository";
import { InboxReadRepository, InboxRepository } from "./inbox.repository";
import type { IntakeRepository } from "./intake.repository";
import type { Client } from "./prisma";
import { OutboundRepository } from "./outbound.repository";
import { SmtpLogRepository } from "./smtp-log.repository";
import { SnapshotRepository } from "./snapshot.repository";

/** The transaction-bound set (`data.repos`, and what `write()` hands its change): bound to the client or to one transaction. */
export const repositories = (db: Client, changes?: ChangeLog) => ({
  inboxes: new InboxRepository(db, changes),
  emails: new EmailRepository(db),
  demoQuotas: new DemoQuotaRepository(db),
  tenants: new RemovedTenantRepository(db),
  processedEvents: new ProcessedEventRepository(db),
  snapshots: new SnapshotRepository(db),
  outbound: new OutboundRepository(db),
});
export type InboxRepos = ReturnType<typeof repositories>;

/**
 * The pool-only hot-path set (`data.hot`): one per process, never in a transaction. `intake` (the
 * SMTP intake's group-committed statements and recipient cache) is made by the caller, which
 * hands it the relay and the change broadcasts.
 */
export const hotRepositories = (pool: PgPool, intake: IntakeRepository) => {
  const sql = poolSql(pool);
  return {
    inboxes: new InboxReadRepository(sql),
    emails: new EmailWaitRepository(sql),
    intake,
    smtpLog: new SmtpLogRepository(sql),
  };
};
export type InboxHot = ReturnType<typeof hotRepositories>;
