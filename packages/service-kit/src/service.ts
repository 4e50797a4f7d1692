import type { Pool } from "pg";
import type { JetStreamClient } from "@nats-io/jetstream";
import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import type { Redis } from "ioredis";
import type { DestinationStream } from "pino";
import { configWarnings } from "./config";
import { prepareDatabase } from "./db";
import { exitOnStartupError, handleShutdown } from "./shutdown";
import { serveHealthPing } from "./health-ping";
import type { HealthCheck } from "./health";
import { createLogger, type Logger } from "./logger";
import { createMetrics, type Metrics } from "./metrics";
import { connectNats, ensureStreams } from "./nats";
import { createRedis, redisReady } from "./redis";
import type { Telemetry } from "./telemetry";

export interface BaseConfig {
  service: { name: string };
  log: { level: string };
  nats: { url: string; namespace: string; stream_replicas?: number };
  redis: { url: string; key_prefix: string };
}

/** The real clients one service process holds; main.ts (or a test) creates them, app.ts receives them. */
export interface Infra {
  logger: Logger;
  metrics: Metrics;
  nc: NatsConnection;
  js: JetStreamClient;
  pool: Pool | null;
  redis: Redis | null;
  checks: Record<string, HealthCheck>;
  close(): Promise<void>;
}

export async function startInfra(opts: {
  config: BaseConfig;
  database?: { url: string; migrationsDir: string };
  redis?: boolean;
  logDestination?: DestinationStream;
}): Promise<Infra> {
  const { config } = opts;
  const logger = createLogger({
    service: config.service.name,
    level: config.log.level,
    ...(opts.logDestination ? { destination: opts.logDestination } : {}),
  });
  for (const warning of configWarnings(config)) logger.warn({ setting: warning.split(":")[0] }, warning);
  const metrics = createMetrics(config.service.name);
  const pool = opts.database ? await prepareDatabase(opts.database.url, opts.database.migrationsDir, logger) : null;
  const nc = await connectNats(config.nats.url, config.service.name, logger);
  await ensureStreams(nc, config.nats.namespace, config.nats.stream_replicas ?? 1);
  const js = jetstream(nc);
  let redis: Redis | null = null;
  if (opts.redis) {
    redis = createRedis(config.redis.url, logger);
    await redisReady(redis).catch((err: unknown) => logger.warn({ err }, "redis not reachable at start; continuing"));
  }
  const checks: Record<string, HealthCheck> = {
    nats: async () => {
      if (nc.isClosed()) throw new Error("closed");
      await nc.flush();
    },
  };
  if (pool) checks.postgres = () => pool.query("SELECT 1");
  if (redis) {
    const r = redis;
    checks.redis = () => r.ping();
  }
  serveHealthPing(nc, config.nats.namespace, config.service.name, checks, logger);
  return {
    logger,
    metrics,
    nc,
    js,
    pool,
    redis,
    checks,
    close: async () => {
      await nc.drain().catch(() => undefined);
      if (redis) redis.disconnect();
      if (pool) await pool.end();
    },
  };
}

/**
 * The whole of a service's main.ts: load config (a bad one exits with every problem listed),
 * connect the infrastructure, start the service, and stop it gracefully on SIGTERM/SIGINT.
 */
export async function runService<C extends BaseConfig>(opts: {
  /** Started by main.ts before it loaded the service; its spans are flushed on shutdown. */
  telemetry?: Telemetry | null;
  loadConfig: () => C;
  infra: (config: C) => Parameters<typeof startInfra>[0];
  start: (config: C, infra: Infra) => Promise<{ stop(): Promise<void> }>;
}): Promise<void> {
  let config: C;
  try {
    config = opts.loadConfig();
  } catch (err) {
    exitOnStartupError(undefined, err);
  }
  let infra: Infra;
  try {
    infra = await startInfra(opts.infra(config));
  } catch (err) {
    exitOnStartupError(undefined, err);
  }
  try {
    const running = await opts.start(config, infra);
    handleShutdown(infra.logger, async () => {
      await running.stop();
      await infra.close();
      await opts.telemetry?.shutdown().catch((err: unknown) => infra.logger.warn({ err }, "flushing traces failed"));
    });
  } catch (err) {
    exitOnStartupError(infra.logger, err);
  }
}
