import type { Pool } from "pg";
import type { JetStreamClient } from "@nats-io/jetstream";
import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import type { Redis } from "ioredis";
import type { DestinationStream } from "pino";
import { parseDurationMs } from "@burnbox/contracts";
import { configWarnings, loadMigrationConfig } from "../core/config";
import { Drain } from "../core/drain";
import { migrateDatabase, prepareDatabase, type PoolLimits } from "../data/db";
import { exitOnStartupError, handleShutdown } from "./shutdown";
import { serveHealthPing } from "../messaging/health-ping";
import type { HealthCheck } from "../core/health-checks";
import { createLogger, type Logger } from "../core/logger";
import { createMetrics, type Metrics } from "../core/metrics";
import { connectNats, ensureStreams } from "../messaging/nats";
import { createRedis, redisReady } from "../data/redis";
import type { Telemetry } from "../telemetry";

export interface BaseConfig {
  service: { name: string };
  log: { level: string };
  nats: { url: string; namespace: string; stream_replicas?: number; user?: string | undefined; password?: string | undefined };
  redis: { url: string; key_prefix: string };
  /** `shutdown.drain_delay` / `shutdown.drain_timeout` (baseConfigShape); absent: no delay, 5 s. */
  shutdown?: { drain_delay: string; drain_timeout: string };
}

/** The real clients one service process holds; main.ts (or a test) creates them, app.ts receives them. */
export interface Infra {
  logger: Logger;
  metrics: Metrics;
  nc: NatsConnection;
  js: JetStreamClient;
  pool: Pool | null;
  redis: Redis | null;
  /** Every dependency with its check: the admin health ping reports them all (a service may add its own). */
  checks: Record<string, HealthCheck>;
  /**
   * What `/readyz` runs: only what the process cannot serve without (its database; NATS only when
   * its connection is closed for good, not while it reconnects). Redis is never here: every
   * user of it has a Redis-down path, and a Redis blink must not empty every Service at once.
   */
  ready: Record<string, HealthCheck>;
  /** The process's shutdown: readiness reads it, servers and long-lived requests hook into it. */
  drain: Drain;
  close(): Promise<void>;
}

export async function startInfra(opts: {
  config: BaseConfig;
  /** `poolSize`: the service's `database.pool_size` (the kit's default when absent). */
  database?: { url: string; migrationsDir: string; poolSize?: number; migrateOnStart?: boolean };
  redis?: boolean;
  logDestination?: DestinationStream;
  /** Server-side limits on the pool's connections (the SMTP intake's `smtp.store_timeout`); absent: none. */
  poolLimits?: PoolLimits;
}): Promise<Infra> {
  const { config } = opts;
  const logger = createLogger({
    service: config.service.name,
    level: config.log.level,
    ...(opts.logDestination ? { destination: opts.logDestination } : {}),
  });
  for (const warning of configWarnings(config)) logger.warn({ setting: warning.split(":")[0] }, warning);
  const metrics = createMetrics(config.service.name);
  const pool = opts.database
    ? await prepareDatabase(
        opts.database.url,
        opts.database.migrationsDir,
        logger,
        opts.database.poolSize,
        opts.database.migrateOnStart ?? true,
        opts.poolLimits,
      )
    : null;
  const nc = await connectNats(config.nats.url, config.service.name, logger, config.nats);
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
  const ready: Record<string, HealthCheck> = {
    nats: () => (nc.isClosed() ? Promise.reject(new Error("closed")) : Promise.resolve()),
  };
  if (checks.postgres) ready.postgres = checks.postgres;
  const drain = new Drain(
    {
      delayMs: config.shutdown ? parseDurationMs(config.shutdown.drain_delay) : 0,
      timeoutMs: config.shutdown ? parseDurationMs(config.shutdown.drain_timeout) : 5000,
    },
    logger,
  );
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
    ready,
    drain,
    close: async () => {
      await nc.drain().catch(() => undefined);
      if (redis) redis.disconnect();
      if (pool) await pool.end();
    },
  };
}

/** A service's database: its name (`burnbox_inbox`) and its migrations (`prisma/migrations`). */
export interface ServiceDatabase {
  name: string;
  migrationsDir: string;
}

/**
 * The whole of a service's main.ts: load config (a bad one exits with every problem listed),
 * connect the infrastructure (the database created, migrated and pooled when the service has
 * one), start the service, and drain it on SIGTERM/SIGINT (Drain).
 *
 * `node dist/main.js --migrate-only` (the same image, e.g. as a Kubernetes Job before a rollout)
 * creates the database if needed, applies the pending migrations under their advisory lock and
 * exits: 0 when the schema is current. It reads only the database settings and the log level.
 */
export async function runService<
  C extends BaseConfig & { database?: { url: string; pool_size: number; migrate_on_start: boolean } },
>(opts: {
  /** Started by main.ts before it loaded the service; its spans are flushed on shutdown. */
  telemetry?: Telemetry | null;
  /** The service's database, when it has one. */
  database?: ServiceDatabase;
  /** The process environment (main.ts passes it): `--migrate-only` reads its database settings from it. */
  env?: Record<string, string | undefined>;
  loadConfig: () => C;
  infra: (config: C) => Omit<Parameters<typeof startInfra>[0], "database">;
  start: (config: C, infra: Infra) => Promise<{ stop(): Promise<void> }>;
  argv?: readonly string[];
}): Promise<void> {
  if ((opts.argv ?? process.argv).includes("--migrate-only")) {
    await migrateOnly(opts.database, opts.env ?? {});
    return;
  }
  let config: C;
  try {
    config = opts.loadConfig();
  } catch (err) {
    exitOnStartupError(undefined, err);
  }
  let infra: Infra;
  try {
    const database =
      opts.database && config.database
        ? {
            url: config.database.url,
            migrationsDir: opts.database.migrationsDir,
            poolSize: config.database.pool_size,
            migrateOnStart: config.database.migrate_on_start,
          }
        : undefined;
    infra = await startInfra({ ...opts.infra(config), ...(database ? { database } : {}) });
  } catch (err) {
    exitOnStartupError(undefined, err);
  }
  try {
    const running = await opts.start(config, infra);
    const { delayMs, timeoutMs } = infra.drain.settings;
    handleShutdown(
      infra.logger,
      async () => {
        // readiness fails now; serving goes on until the endpoints drop us, then in-flight work drains
        await infra.drain.shutdown(() => running.stop());
        await infra.close();
        await opts.telemetry?.shutdown().catch((err: unknown) => infra.logger.warn({ err }, "flushing traces failed"));
      },
      // the drain's own bounds, plus room for the workers' and connections' stops
      delayMs + timeoutMs + 10_000,
    );
  } catch (err) {
    exitOnStartupError(infra.logger, err);
  }
}

async function migrateOnly(database: ServiceDatabase | undefined, env: Record<string, string | undefined>): Promise<void> {
  if (!database) {
    process.stderr.write("--migrate-only: this service has no database\n");
    process.exit(2);
  }
  let logger: Logger | undefined;
  try {
    const service = `${database.name.replace(/^burnbox_/, "").replace(/_/g, "-")}-migrate`;
    const config = loadMigrationConfig(database.name, service, env);
    logger = createLogger({ service, level: config.log.level });
    const applied = await migrateDatabase(config.database.url, database.migrationsDir, logger);
    logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
    process.exit(0);
  } catch (err) {
    if (logger) logger.fatal({ err }, "migration failed");
    else process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
