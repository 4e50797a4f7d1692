import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createHttpApp, finalizeHttpApp, listen, mountHealth, serveApi, startOutboxRelay, type Infra } from "@burnbox/service-kit";
import type { InboxConfig } from "./config";
import { createPrisma } from "./data/prisma";
import { LocalStorage } from "./data/storage";
import type { InboxDeps } from "./domain/deps";
import { inboxRouter } from "./http/inbox.routes";
import { serveInboxRpc } from "./messaging/inbox.rpc";
import { createSmtpIntake } from "./smtp/intake";
import { startCleanupWorker } from "./workers/cleanup.worker";

export interface RunningService {
  port: number;
  deps: InboxDeps;
  stop(): Promise<void>;
}

function buildDeps(config: InboxConfig, infra: Infra, now: () => number) {
  if (!infra.pool) throw new Error("inbox needs its database");
  const db = createPrisma(config.database.url);
  const relay = startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger });
  const storage = new LocalStorage(config.storage.local_path);
  infra.checks.storage = () => storage.check();
  const deps: InboxDeps = { db, nc: infra.nc, relay, storage, config, now };
  return deps;
}

/** The inbox API: inboxes, emails, the TTL cleanup worker and the inbox-access reply for realtime. */
export async function startService(config: InboxConfig, infra: Infra, opts: { now?: () => number } = {}): Promise<RunningService> {
  const deps = buildDeps(config, infra, opts.now ?? Date.now);
  const rpcs = serveInboxRpc(infra.nc, deps, infra.logger);
  const worker = startCleanupWorker(deps, infra.logger);
  const server = await serveApi({ config, infra, routers: [inboxRouter(deps)] });
  return {
    port: server.port,
    deps,
    stop: async () => {
      await server.close();
      await worker.stop();
      await Promise.all(rpcs.map((s) => s.stop()));
      await deps.relay.stop();
      await deps.db.$disconnect();
    },
  };
}

export interface RunningIntake {
  smtpPort: number;
  healthPort: number;
  deps: InboxDeps;
  stop(): Promise<void>;
}

/** The SMTP intake as its own process: SMTP on smtp.port, health and metrics on http.port. */
export async function startIntake(config: InboxConfig, infra: Infra, opts: { now?: () => number } = {}): Promise<RunningIntake> {
  const deps = buildDeps(config, infra, opts.now ?? Date.now);
  const smtp = createSmtpIntake(deps, infra.logger);
  smtp.listen(config.smtp.port, config.smtp.host);
  await once(smtp.server, "listening");
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  infra.logger.info({ port: smtpPort }, "SMTP intake listening");
  const app = createHttpApp({ logger: infra.logger, metrics: infra.metrics });
  mountHealth(app, infra.checks);
  if (config.metrics.enabled) app.get(config.metrics.path, infra.metrics.handler);
  finalizeHttpApp(app, infra.logger);
  const health = await listen(app, config.http.port, config.http.host);
  return {
    smtpPort,
    healthPort: health.port,
    deps,
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await health.close();
      await deps.relay.flush().catch(() => undefined);
      await deps.relay.stop();
      await deps.db.$disconnect();
    },
  };
}
