import { webhookDispatcherServiceRoutes } from "@burnbox/contracts";
import { createUnitOfWork } from "@burnbox/service-kit/data";
import { bindRoutes, serveApi } from "@burnbox/service-kit/http";
import { startConsumers, startOutboxRelay } from "@burnbox/service-kit/messaging";
import { StopList, systemClock, type Clock, type Infra, type PeriodicTask } from "@burnbox/service-kit/runtime";
import { SecretBox, parseAllowlist } from "@burnbox/service-kit/security";
import type { DispatcherConfig } from "./config";
import { createPrisma, type Db } from "./data/prisma";
import { hotRepositories, repositories } from "./data/repositories";
import type { DispatcherDeps } from "./domain/deps";
import { configuredResolver } from "./adapters/dns-resolver";
import { closeReceiverConnections, type Resolver } from "./adapters/webhook-sender";
import { webhookDeliveriesHandlers } from "./http/webhook-deliveries.handlers";
import { webhooksHandlers } from "./http/webhooks.handlers";
import { dispatchConsumers } from "./messaging/dispatch.consumer";
import { startTenancyConsumers } from "./messaging/tenancy-events.consumer";
import { startDeliveryWorker, type DeliveryWorker } from "./workers/delivery.worker";
import { startWebhookRetryWorker } from "./workers/webhook-retry.worker";
import { sealStoredSecrets } from "./domain/webhooks/seal-stored-secrets.use-case";

export interface RunningService {
  port: number;
  deps: DispatcherDeps;
  /** The database client, for tests that look at rows directly. */
  db: Db;
  workers: { delivery: DeliveryWorker; webhookRetry: PeriodicTask };
  stop(): Promise<void>;
}

/** Team webhooks: CRUD, durable dispatch of inbox events, signed delivery with retries. */
export async function startService(
  config: DispatcherConfig,
  infra: Infra,
  opts: { resolver?: Resolver; now?: Clock } = {},
): Promise<RunningService> {
  if (!infra.pool) throw new Error("webhook-dispatcher needs its database");
  const { logger } = infra;
  if (config.webhooks.unsafe_allowed_targets.length > 0) {
    logger.warn(
      { unsafe_allowed_targets: config.webhooks.unsafe_allowed_targets },
      "UNSAFE: webhooks.unsafe_allowed_targets is set; these hosts bypass SSRF protection. Use only for local test receivers, never in production",
    );
  }
  // what starts is added as it starts; stop() stops it in the reverse order (the server first, the client last)
  const stops = new StopList();
  const db = createPrisma(infra.pool);
  stops.addStep(() => db.$disconnect());
  stops.addStep(() => closeReceiverConnections());
  const relay = stops.add(startOutboxRelay({ pool: infra.pool, js: infra.js, logger }));
  const allowed = parseAllowlist(config.webhooks.unsafe_allowed_targets);
  const hot = hotRepositories(infra.pool, { nc: infra.nc, namespace: config.nats.namespace });
  const deps: DispatcherDeps = {
    data: createUnitOfWork({
      client: db,
      transaction: (fn) => db.$transaction(fn),
      repositories,
      hot,
      relay,
      namespace: config.nats.namespace,
      // what each commit changed goes to every replica's caches (the subscribers: SUBSCRIBER_CHANGES)
      changes: { nc: infra.nc },
    }),
    nc: infra.nc,
    config,
    allowed,
    resolver: opts.resolver ?? configuredResolver(config.dns, allowed),
    secrets: new SecretBox(config.encryption.key),
    now: opts.now ?? systemClock,
  };
  // the data migration of 0004_sealed_secret, before anything is sent
  await sealStoredSecrets(deps, logger);
  const webhookRetry = stops.add(startWebhookRetryWorker(deps, logger));
  const delivery = stops.add(startDeliveryWorker(deps, logger));
  stops.add(await startConsumers(deps, logger, [dispatchConsumers(() => delivery.kick()), startTenancyConsumers]));
  const api = bindRoutes(webhookDispatcherServiceRoutes, {
    ...webhooksHandlers(deps),
    ...webhookDeliveriesHandlers(deps, () => delivery.kick()),
  });
  const server = await serveApi({ config, infra, routers: [api] });
  stops.addStep(() => server.close());
  return {
    port: server.port,
    deps,
    db,
    workers: { delivery, webhookRetry },
    stop: () => stops.stop(),
  };
}
