import { parseDurationMs } from "@burnbox/contracts";
import { serveApi, startOutboxRelay, type Infra } from "@burnbox/service-kit";
import type { IdentityConfig } from "./config";
import { createPrisma } from "./data/prisma";
import type { IdentityDeps } from "./domain/deps";
import { PasswordHasher } from "./domain/passwords";
import { apiKeysRouter } from "./http/apikeys.routes";
import { adminRouter } from "./http/admin.routes";
import { authRouter } from "./http/auth.routes";
import { sessionsRouter } from "./http/sessions.routes";
import { Mailer } from "./mail/mailer";
import { serveIdentityRpc } from "./messaging/identity.rpc";
import { startApiKeyWorkers } from "./workers/apikeys.worker";

export interface RunningService {
  port: number;
  deps: IdentityDeps;
  stop(): Promise<void>;
}

/** Users, passwords, sessions and tokens, and API-key resolution for the gateway. */
export async function startService(config: IdentityConfig, infra: Infra, opts: { now?: () => number } = {}): Promise<RunningService> {
  if (!infra.pool) throw new Error("identity needs its database");
  const db = createPrisma(config.database.url);
  const relay = startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger });
  const deps: IdentityDeps = {
    db,
    nc: infra.nc,
    redis: infra.redis,
    relay,
    config,
    hasher: new PasswordHasher(config.auth.argon2),
    mailer: new Mailer(config.mail, infra.logger),
    logger: infra.logger,
    now: opts.now ?? Date.now,
  };
  const rpcs = serveIdentityRpc(infra.nc, deps, infra.logger);
  const workers = startApiKeyWorkers(deps, infra.logger, {
    flushMs: parseDurationMs(config.workers.apikey_usage_flush_interval),
    cleanupMs: parseDurationMs(config.workers.cleanup_interval),
  });
  const server = await serveApi({
    config,
    infra,
    routers: [authRouter(deps), sessionsRouter(deps), adminRouter(deps), apiKeysRouter(deps)],
  });
  return {
    port: server.port,
    deps,
    stop: async () => {
      await server.close();
      await Promise.all(rpcs.map((s) => s.stop()));
      await workers.stop();
      deps.mailer.close();
      await relay.stop();
      await db.$disconnect();
    },
  };
}
