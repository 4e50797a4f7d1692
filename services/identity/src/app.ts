import cookieParser from "cookie-parser";
import { identityServiceRoutes, parseDurationMs } from "@burnbox/contracts";
import { createUnitOfWork } from "@burnbox/service-kit/data";
import { bindRoutes, serveApi } from "@burnbox/service-kit/http";
import { startConsumers, startOutboxRelay } from "@burnbox/service-kit/messaging";
import { startPeriodicTask, StopList, type Infra, type PeriodicTask, type Clock } from "@burnbox/service-kit/runtime";
import { SecretBox, outboundPolicy } from "@burnbox/service-kit/security";
import type { IdentityConfig } from "./config";
import { createPrisma, hotRepositories, repositories } from "./data/repositories";
import type { IdentityDeps } from "./domain/deps";
import { keyStateRefresher } from "./domain/api-keys/key-cache";
import { PasswordHasher } from "./domain/passwords";
import { configuredGithub } from "./domain/sso/presets";
import { RelyingParty } from "./adapters/relying-party";
import { accountHandlers } from "./http/account.handlers";
import { adminUsersHandlers } from "./http/admin-users.handlers";
import { apiKeysHandlers } from "./http/api-keys.handlers";
import { authHandlers } from "./http/auth.handlers";
import { platformHandlers } from "./http/platform.handlers";
import { sessionsHandlers } from "./http/sessions.handlers";
import { ssoAdminHandlers } from "./http/sso-admin.handlers";
import { ssoHandlers } from "./http/sso.handlers";
import { configMailerSettings, Mailer } from "./adapters/mailer";
import { startPlatformMailer } from "./domain/platform/platform-mailer";
import { servePlatformRpc } from "./messaging/platform.rpc";
import { serveIdentityRpc } from "./messaging/identity.rpc";
import { serveSetupRpc } from "./messaging/setup.rpc";
import { serveTenancySupportRpc } from "./messaging/tenancy-support.rpc";
import { startTenancyConsumers } from "./messaging/tenancy-events.consumer";
import { serveInviteAcceptedRpc, startInviteAcceptedConsumer } from "./messaging/invites.consumer";
import { startApiKeyWorkers, type ApiKeyWorkers } from "./workers/apikeys.worker";
import { startRevocationSeeding } from "./workers/revocations.worker";
import { purgeExpiredSsoGrants } from "./domain/sso/purge-expired-sso-grants";

export interface RunningService {
  port: number;
  deps: IdentityDeps;
  /** The periodic tasks, for tests to run now rather than wait for. */
  workers: Pick<ApiKeyWorkers, "usageFlush" | "expiredCleanup"> & { revocationSeed: PeriodicTask; ssoGrantPurge: PeriodicTask };
  stop(): Promise<void>;
}

/** Users, passwords, sessions and tokens, and API-key resolution for the gateway. */
export async function startService(config: IdentityConfig, infra: Infra, opts: { now?: Clock } = {}): Promise<RunningService> {
  if (!infra.pool) throw new Error("identity needs its database");
  // what starts is added as it starts; stop() stops it in the reverse order (the server first, the client last)
  const stops = new StopList();
  const db = createPrisma(infra.pool);
  stops.addStep(() => db.$disconnect());
  const relay = stops.add(startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger }));
  if (config.sso.unsafe_allowed_issuers.length > 0) {
    infra.logger.warn(
      { unsafe_allowed_issuers: config.sso.unsafe_allowed_issuers },
      "UNSAFE: sso.unsafe_allowed_issuers is set; these SSO issuers may use plain http and private addresses. Use only for local test providers, never in production",
    );
  }
  if (config.infra.unsafe_allowed_targets.length > 0) {
    infra.logger.warn(
      { unsafe_allowed_targets: config.infra.unsafe_allowed_targets },
      "UNSAFE: infra.unsafe_allowed_targets is set; the saved platform mailer may reach these hosts. Use only for local test targets, never in production",
    );
  }
  const now = opts.now ?? Date.now;
  const secrets = new SecretBox(config.encryption.key);
  const outbound = outboundPolicy({ dns: config.dns, allowedTargets: config.infra.unsafe_allowed_targets });
  const deps: IdentityDeps = {
    data: createUnitOfWork({
      client: db,
      transaction: (fn) => db.$transaction(fn),
      repositories,
      hot: hotRepositories(),
      relay,
      namespace: config.nats.namespace,
      // each commit's changes: the keys' states written to Redis, then every replica's caches told
      refreshShared: keyStateRefresher(infra.redis, config.redis.key_prefix, repositories(db)),
      changes: { nc: infra.nc },
    }),
    nc: infra.nc,
    redis: infra.redis,
    config,
    hasher: new PasswordHasher(config.auth.argon2),
    mailer: new Mailer(configMailerSettings(config.mail), infra.logger, outbound, config.mailer.allowed_ports),
    secrets,
    rp: new RelyingParty({
      secrets,
      unsafeAllowedIssuers: config.sso.unsafe_allowed_issuers,
      now,
      github: configuredGithub(config.sso),
      resolve: outbound.resolve,
    }),
    outbound,
    logger: infra.logger,
    now,
  };
  stops.addStep(() => deps.mailer.close());
  stops.add([
    ...serveIdentityRpc(deps),
    ...serveTenancySupportRpc(deps),
    ...serveSetupRpc(deps),
    ...servePlatformRpc(deps),
    serveInviteAcceptedRpc(deps),
  ]);
  // the saved platform mailer (tenancy), on every replica at once when it changes
  stops.add(await startPlatformMailer(deps, deps.mailer));
  // tenancy's org and team removals and moves: the teams' API keys go (or follow) with them; accepted invites
  stops.add(await startConsumers(deps, infra.logger, [startTenancyConsumers, startInviteAcceptedConsumer]));
  const workers = stops.add(
    startApiKeyWorkers(deps, {
      flushMs: parseDurationMs(config.workers.apikey_usage_flush_interval),
      cleanupMs: parseDurationMs(config.workers.cleanup_interval),
    }),
  );
  const revocationSeed = stops.add(startRevocationSeeding(deps, { intervalMs: parseDurationMs(config.workers.revocation_seed_interval) }));
  const ssoGrantPurge = stops.add(
    startPeriodicTask({
      name: "sso-grant-purge",
      intervalMs: parseDurationMs(config.workers.cleanup_interval),
      run: () => purgeExpiredSsoGrants(deps),
      logger: deps.logger,
    }),
  );
  const api = bindRoutes(identityServiceRoutes, {
    ...authHandlers(deps),
    ...accountHandlers(deps),
    ...sessionsHandlers(deps),
    ...adminUsersHandlers(deps),
    ...platformHandlers(deps),
    ...apiKeysHandlers(deps),
    ...ssoHandlers(deps),
    ...ssoAdminHandlers(deps),
  });
  // the refresh-token cookie (cookie mode) is read by the auth handlers
  const server = await serveApi({ config, infra, routers: [api], before: (app) => app.use(cookieParser()) });
  stops.addStep(() => server.close());
  return {
    port: server.port,
    deps,
    workers: { usageFlush: workers.usageFlush, expiredCleanup: workers.expiredCleanup, revocationSeed, ssoGrantPurge },
    stop: () => stops.stop(),
  };
}
