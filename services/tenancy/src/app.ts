import { tenancyServiceRoutes } from "@burnbox/contracts";
import { createUnitOfWork } from "@burnbox/service-kit/data";
import { bindRoutes, serveApi } from "@burnbox/service-kit/http";
import { startConsumers, startOutboxRelay } from "@burnbox/service-kit/messaging";
import { StopList, systemClock, type Infra, type PeriodicTask } from "@burnbox/service-kit/runtime";
import { SecretBox } from "@burnbox/service-kit/security";
import type { TenancyConfig } from "./config";
import { createPrisma, type Client } from "./data/prisma";
import { hotRepositories, repositories } from "./data/repositories";
import type { TenancyDeps } from "./domain/deps";
import { dnsLookup } from "./adapters/dns-lookup";
import { startDkimKeysWorker } from "./workers/dkim-keys.worker";
import { startDomainVerifyWorker } from "./workers/domain-verify.worker";
import { domainAssignmentsHandlers } from "./http/domain-assignments.handlers";
import { domainsHandlers } from "./http/domains.handlers";
import { membersHandlers } from "./http/members.handlers";
import { adminRolesHandlers, rolesHandlers } from "./http/roles.handlers";
import { orgsHandlers } from "./http/orgs.handlers";
import { teamMembersHandlers } from "./http/team-members.handlers";
import { teamsHandlers } from "./http/teams.handlers";
import { startInboxCountConsumers } from "./messaging/inbox-counts.consumer";
import { startSsoProvisioningConsumer } from "./messaging/sso-provisioning.consumer";
import { adminAuditHandlers, auditHandlers } from "./http/audit.handlers";
import { startAuditConsumer } from "./messaging/audit.consumer";
import { startAuditRetentionWorker } from "./workers/audit-retention.worker";
import { adminStatsHandlers } from "./http/admin-stats.handlers";
import { analyticsHandlers } from "./http/analytics.handlers";
import { serveAdminStatsRpc } from "./messaging/admin-stats.rpc";
import { startAnalyticsConsumers } from "./messaging/analytics.consumer";
import { serveTenancyRpc } from "./messaging/tenancy.rpc";
import { domainImpactHandlers, teamImpactHandlers } from "./http/impact.handlers";
import { invitesHandlers } from "./http/invites.handlers";
import { startInviteConsumers } from "./messaging/invites.consumer";
import { platformConfigHandlers } from "./http/platform-config.handlers";
import path from "node:path";
import { adminHandlers } from "./http/admin.handlers";
import { setupGuard, setupHandlers } from "./http/setup.handlers";
import { packageVersion } from "./adapters/package-version";
import { prepareSetupToken } from "./domain/setup/setup-token";
import { servePlatformConfigRpc } from "./messaging/platform-config.rpc";
import { PlatformTtlView, startPlatformTtl } from "./domain/platform-config/platform-ttl";

export interface RunningService {
  port: number;
  deps: TenancyDeps;
  /** The periodic tasks, for tests to run now rather than wait for. */
  workers: { domainVerify: PeriodicTask; auditRetention: PeriodicTask; dkimKeys: PeriodicTask };
  stop(): Promise<void>;
}

/** Orgs, teams, domains and assignments, and the RBAC decision for every other service. */
export async function startService(config: TenancyConfig, infra: Infra): Promise<RunningService> {
  if (!infra.pool) throw new Error("tenancy needs its database");
  // what starts is added as it starts; stop() stops it in the reverse order (the server first, the client last)
  const stops = new StopList();
  const db = createPrisma(infra.pool);
  stops.addStep(() => db.$disconnect());
  const relay = stops.add(startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger }));
  // the platform's inbox TTLs (identity), kept current on this replica by the change event
  const platformTtl = new PlatformTtlView();
  stops.add(
    await startPlatformTtl({
      nc: infra.nc,
      namespace: config.nats.namespace,
      logger: infra.logger,
      view: platformTtl,
    }),
  );
  const data = createUnitOfWork({
    client: db,
    transaction: (fn) => db.$transaction(fn),
    repositories: (client: Client) => repositories(client, { mxTarget: config.smtp.hostname, platformTtl: () => platformTtl.current() }),
    hot: hotRepositories(infra.pool),
    relay,
    namespace: config.nats.namespace,
    // what each commit changed goes to every replica's caches (the decision caches: ACCESS_CHANGES)
    changes: { nc: infra.nc },
  });
  const deps: TenancyDeps = {
    data,
    config,
    nc: infra.nc,
    now: systemClock,
    dnsLookup: dnsLookup(config.dns.servers, config.dns.timeout_ms),
    secrets: new SecretBox(config.encryption.key),
    platformTtl,
  };
  const domainVerify = stops.add(startDomainVerifyWorker(deps, infra.logger));
  const dkimKeys = stops.add(startDkimKeysWorker(deps, infra.logger));
  stops.add([...serveTenancyRpc(infra.nc, deps, infra.logger), ...servePlatformConfigRpc(infra.nc, deps, infra.logger)]);
  if (config.infra.unsafe_allowed_targets.length > 0) {
    infra.logger.warn(
      { unsafe_allowed_targets: config.infra.unsafe_allowed_targets },
      "UNSAFE: infra.unsafe_allowed_targets is set; the SMTP and storage tests may reach these hosts. Use only for local test targets, never in production",
    );
  }
  stops.add(
    await startConsumers(deps, infra.logger, [
      startInboxCountConsumers,
      startSsoProvisioningConsumer,
      startInviteConsumers,
      startAuditConsumer,
      startAnalyticsConsumers,
    ]),
  );
  const auditRetention = stops.add(startAuditRetentionWorker(deps, infra.logger));
  stops.add(serveAdminStatsRpc(infra.nc, deps, infra.logger));
  const api = bindRoutes(tenancyServiceRoutes, {
    ...orgsHandlers(deps),
    ...membersHandlers(deps),
    ...teamsHandlers(deps),
    ...teamMembersHandlers(deps),
    ...domainsHandlers(deps),
    ...domainAssignmentsHandlers(deps),
    ...rolesHandlers(deps),
    ...adminRolesHandlers(deps),
    ...invitesHandlers(deps),
    ...domainImpactHandlers(deps),
    ...teamImpactHandlers(deps),
    ...auditHandlers(deps),
    ...adminAuditHandlers(deps),
    ...analyticsHandlers(deps),
    ...adminStatsHandlers(deps),
    ...platformConfigHandlers(deps),
    ...setupHandlers(deps),
    // the package.json beside src/ and dist/ alike
    ...adminHandlers(deps, { checks: infra.checks, version: packageVersion(path.join(__dirname, "..", "package.json")) }),
  });
  const setupToken = await prepareSetupToken(deps, infra.logger);
  const server = await serveApi({ config, infra, routers: [setupGuard(deps, setupToken), api] });
  stops.addStep(() => server.close());
  return {
    port: server.port,
    deps,
    workers: { domainVerify, auditRetention, dkimKeys },
    stop: () => stops.stop(),
  };
}
