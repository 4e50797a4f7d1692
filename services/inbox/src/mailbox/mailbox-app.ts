import { parseDurationMs } from "@burnbox/contracts";
import { createHttpApp, finalizeHttpApp, listen, metricsOnHttpPort, mountHealth, serveMetricsPort } from "@burnbox/service-kit/http";
import type { Clock, Infra } from "@burnbox/service-kit/runtime";
import { buildDeps, startLiveConfig } from "../app";
import type { InboxConfig } from "../config";
import { MailboxRepository } from "../data/mailbox.repository";
import type { InboxDeps } from "../domain/deps";
import { MailboxAccess, MailWakes } from "./mailbox-access";
import { startMailboxServers } from "./mailbox-servers";

export interface RunningMailbox {
  imapPort: number;
  pop3Port: number;
  healthPort: number;
  deps: InboxDeps;
  stop(): Promise<void>;
}

/** The IMAP and POP3 entrypoint of the inbox service (extensions section 11), with its health and metrics port. */
export async function startMailbox(config: InboxConfig, infra: Infra, opts: { now?: Clock } = {}): Promise<RunningMailbox> {
  if (!infra.pool) throw new Error("the mailbox entrypoint needs its database");
  const { deps, db, relay } = buildDeps(config, infra, opts.now ?? Date.now);
  const platformConfig = await startLiveConfig(config, infra, deps);
  const repo = new MailboxRepository(infra.pool);
  const wakes = new MailWakes(infra.nc, config.nats.namespace, infra.logger);
  const access = (protocol: "imap" | "pop3") =>
    new MailboxAccess(
      deps,
      repo,
      infra.redis,
      wakes,
      {
        protocol,
        failureDelayMs: parseDurationMs(config.mailbox.login_failure_delay),
        failuresPerMinute: config.mailbox.login_failures_per_minute,
      },
      infra.logger,
    );
  const servers = await startMailboxServers(config, { imap: access("imap"), pop3: access("pop3") }, infra.logger);
  const app = createHttpApp({ logger: infra.logger, metrics: infra.metrics });
  mountHealth(app, infra.ready, { drain: infra.drain });
  if (metricsOnHttpPort(config)) app.get(config.metrics.path, infra.metrics.handler);
  finalizeHttpApp(app, infra.logger);
  const metricsPort = await serveMetricsPort(config, infra.metrics, infra.logger);
  const health = await listen(app, config.http.port, config.http.host, { drainTimeoutMs: infra.drain.settings.timeoutMs });
  return {
    imapPort: servers.imapPort,
    pop3Port: servers.pop3Port,
    healthPort: health.port,
    deps,
    stop: async () => {
      await servers.close();
      wakes.stop();
      await Promise.all([health.close(), metricsPort?.close()]);
      await relay.flush().catch(() => undefined);
      await platformConfig.stop();
      await relay.stop();
      await db.$disconnect();
      deps.storage.close();
    },
  };
}
