import { serveApi, startOutboxRelay, type Infra } from "@burnbox/service-kit";
import type { DispatcherConfig } from "./config";
import { createPrisma } from "./data/prisma";
import type { DispatcherDeps } from "./domain/deps";
import { systemResolver, type Resolver } from "./domain/sender";
import { parseAllowlist } from "./domain/url-policy";
import { webhooksRouter } from "./http/webhooks.routes";
import { startDispatchConsumers } from "./messaging/dispatch.consumer";
import { startDeliveryWorker } from "./workers/delivery.worker";
import { startWebhookRetryWorker } from "./workers/webhook-retry.worker";

export interface RunningService {
  port: number;
  deps: DispatcherDeps;
  stop(): Promise<void>;
}

/** Team webhooks: CRUD, durable dispatch of inbox events, signed delivery with retries. */
export async function startService(config: DispatcherConfig, infra: Infra, opts: { resolver?: Resolver } = {}): Promise<RunningService> {
  if (!infra.pool) throw new Error("webhook-dispatcher needs its database");
  const { logger } = infra;
  if (config.webhooks.unsafe_allowed_targets.length > 0) {
    logger.warn(
      { unsafe_allowed_targets: config.webhooks.unsafe_allowed_targets },
      "UNSAFE: webhooks.unsafe_allowed_targets is set; these hosts bypass SSRF protection. Use only for local test receivers, never in production",
    );
  }
  const db = createPrisma(config.database.url);
  const relay = startOutboxRelay({ pool: infra.pool, js: infra.js, logger });
  const deps: DispatcherDeps = {
    db,
    nc: infra.nc,
    relay,
    config,
    allowed: parseAllowlist(config.webhooks.unsafe_allowed_targets),
    resolver: opts.resolver ?? systemResolver,
  };
  const worker = startDeliveryWorker(deps, logger);
  const retry = startWebhookRetryWorker(deps, logger);
  const consumers = await startDispatchConsumers(deps, logger, () => worker.kick());
  const server = await serveApi({ config, infra, routers: [webhooksRouter(deps)] });
  return {
    port: server.port,
    deps,
    stop: async () => {
      await server.close();
      await Promise.all(consumers.map((c) => c.stop()));
      await worker.stop();
      await retry.stop();
      await relay.stop();
      await db.$disconnect();
    },
  };
}
