import { ProcessedEventRepository, poolSql, type PgPool } from "@burnbox/service-kit/data";
import { AnalyticsCounters, AnalyticsRepository } from "./analytics.repository";
import { AuditRepository } from "./audit.repository";
import { DomainAssignmentRepository } from "./domain-assignment.repository";
import { AdminOrgRepository } from "./admin-org.repository";
import { SetupRepository } from "./setup.repository";
import { DomainRepository } from "./domain.repository";
import { ImpactRepository } from "./impact.repository";
import { InboxCounters } from "./inbox-counters.repository";
import { InviteRepository } from "./invite.repository";
import { OrgMemberRepository } from "./org-member.repository";
import { OrgRepository } from "./org.repository";
import { PlatformConfigRepository } from "./platform-config.repository";
import type { Client } from "./prisma";
import { RoleRepository } from "./role.repository";
import { TeamMemberRepository } from "./team-member.repository";
import { TeamRepository } from "./team.repository";

/** The transaction-bound set (`data.repos`, and what `write()` hands its change): bound to the client or to one transaction. */
export const repositories = (
  db: Client,
  opts: { mxTarget: string; platformTtl?: () => { default_inbox_ttl: string; max_inbox_ttl: string } },
) => ({
  orgs: new OrgRepository(db, opts.platformTtl),
  orgMembers: new OrgMemberRepository(db),
  teams: new TeamRepository(db),
  teamMembers: new TeamMemberRepository(db),
  domains: new DomainRepository(db, opts.mxTarget),
  domainAssignments: new DomainAssignmentRepository(db),
  processedEvents: new ProcessedEventRepository(db),
  roles: new RoleRepository(db),
  invites: new InviteRepository(db),
  impact: new ImpactRepository(db),
  audit: new AuditRepository(db),
  analytics: new AnalyticsRepository(db),
  platformConfig: new PlatformConfigRepository(db),
  setup: new SetupRepository(db),
  adminOrgs: new AdminOrgRepository(db),
});
export type TenancyRepos = ReturnType<typeof repositories>;

/**
 * The pool-only hot-path set (`data.hot`): one per process, never in a transaction. `analytics`
 * and `inboxCounters`: the consumers' claim-and-count statements (one per event, grouped while one
 * is in flight).
 */
export const hotRepositories = (pool: PgPool) => {
  const sql = poolSql(pool);
  return { analytics: new AnalyticsCounters(sql), inboxCounters: new InboxCounters(sql) };
};
export type TenancyHot = ReturnType<typeof hotRepositories>;
