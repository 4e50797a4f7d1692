import { randomBytes, randomUUID } from "node:crypto";
import net, { type AddressInfo, type Socket } from "node:net";
import { Writable } from "node:stream";
import type { NatsConnection } from "@nats-io/nats-core";
import type { Actor } from "@burnbox/contracts";
import { startInfra, type BaseConfig, type Infra } from "@burnbox/service-kit/runtime";
import { INTERNAL_CONTEXT_HEADER, signInternalContext } from "@burnbox/service-kit/security";

/**
 * Where the real Postgres, Redis and NATS of tests live. Tests never mock them: they use the
 * servers at these URLs (the machine's own, or containers started by whoever runs the tests).
 */
export const testInfra = {
  postgresUrl: process.env.BB_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
};

export const TEST_INTERNAL_SECRET = "test-internal-secret-0123456789abcdef";
export const TEST_JWT_SECRET = "test-jwt-secret-0123456789abcdef0123456789";

/** A database URL on the test server; the service creates and migrates it on start. */
export function testDatabaseUrl(name: string): string {
  const u = new URL(testInfra.postgresUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A NATS namespace (and Redis prefix) of its own, so parallel test files never see each other's events. */
export function uniqueNamespace(prefix = "t"): string {
  return `${prefix}${randomBytes(5).toString("hex")}`;
}

export function makeActor(overrides: Partial<Actor> = {}): Actor {
  return {
    user_id: randomUUID(),
    email: `user-${randomBytes(4).toString("hex")}@example.test`,
    is_system_admin: false,
    session_id: randomUUID(),
    api_key: null,
    ...overrides,
  };
}

/** Headers a test sends straight to a service, standing where the gateway stands. */
export function internalHeaders(actor: Actor | null, secret = TEST_INTERNAL_SECRET, clientIp = "127.0.0.1"): Record<string, string> {
  return {
    [INTERNAL_CONTEXT_HEADER]: signInternalContext({ actor, client_ip: clientIp, request_id: randomUUID() }, secret),
  };
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${opts.what ?? "condition"}${lastError ? `: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}` : ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/** A pino destination that keeps every line, to assert on what was (and was not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.lines.push(
      ...chunk
        .toString("utf8")
        .split("\n")
        .filter((l) => l.length > 0),
    );
    cb();
  }
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  text(): string {
    return this.lines.join("\n");
  }
}

/** Removes a test namespace's streams (and their consumers) so test runs leave NATS as they found it. */
export async function deleteNamespaceStreams(nc: NatsConnection, namespace: string): Promise<void> {
  const { jetstreamManager } = await import("@nats-io/jetstream");
  const { subjects } = await import("@burnbox/contracts");
  const jsm = await jetstreamManager(nc);
  const s = subjects(namespace);
  for (const name of [s.stream, s.dlqStream]) await jsm.streams.delete(name).catch(() => false);
}

/** Drops a test database (closing its other connections first). */
export async function dropDatabase(url: string): Promise<void> {
  const { Client } = await import("pg");
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: testInfra.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, "")}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A small JSON client for calling one service directly, standing where the gateway stands. */
export function serviceClient(baseUrl: string, secret = TEST_INTERNAL_SECRET) {
  return async <T = unknown>(
    method: string,
    path: string,
    opts: { actor?: Actor | null; body?: unknown; clientIp?: string } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(opts.actor !== undefined ? internalHeaders(opts.actor, secret, opts.clientIp) : {}),
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  };
}

type Overrides = Record<string, unknown>;

function merge(a: Overrides, b: Overrides): Overrides {
  const out: Overrides = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      v && typeof v === "object" && !Array.isArray(v) && prev && typeof prev === "object" && !Array.isArray(prev)
        ? merge(prev as Overrides, v as Overrides)
        : v;
  }
  return out;
}

export interface TestService<C, S> {
  ns: string;
  dbUrl: string;
  config: C;
  infra: Infra;
  service: S;
  logs: LogCapture;
  /** Calls the service as the gateway would, with a signed internal context for the given actor. */
  call: ReturnType<typeof serviceClient>;
  /** Stops the service, then removes its streams and database. */
  stop(): Promise<void>;
}

/**
 * Starts one service in-process on the real Postgres, Redis and NATS, in a namespace (streams,
 * Redis keys, database) of its own, the way every service's integration tests need it.
 */
export async function startTestService<C extends BaseConfig, S extends { port: number; stop(): Promise<void> }>(opts: {
  prefix: string;
  load: (overrides: Overrides) => C;
  start: (config: C, infra: Infra) => Promise<S>;
  /** Database-backed services: where their migrations are. */
  migrationsDir?: string;
  redis?: boolean;
  overrides?: (ctx: { ns: string; dbUrl: string }) => Overrides;
}): Promise<TestService<C, S>> {
  const ns = uniqueNamespace(opts.prefix);
  const dbUrl = testDatabaseUrl(`${ns}_db`);
  const base: Overrides = {
    http: { port: 0, host: "127.0.0.1" },
    internal: { secret: TEST_INTERNAL_SECRET },
    nats: { url: testInfra.natsUrl, namespace: ns },
    redis: { url: testInfra.redisUrl, key_prefix: `${ns}:` },
    ...(opts.migrationsDir ? { database: { url: dbUrl } } : {}),
  };
  const config = opts.load(merge(base, opts.overrides?.({ ns, dbUrl }) ?? {}));
  const logs = new LogCapture();
  // the database the config names (an override may join another test service's), as runService does:
  // Prisma and the raw statements share the one pool made on it
  const database = (config as { database?: { url: string; pool_size?: number } }).database;
  const ownDatabase = !database || database.url === dbUrl;
  const infra = await startInfra({
    config,
    ...(opts.redis ? { redis: true } : {}),
    ...(opts.migrationsDir
      ? {
          database: {
            url: database?.url ?? dbUrl,
            migrationsDir: opts.migrationsDir,
            ...(database?.pool_size ? { poolSize: database.pool_size } : {}),
          },
        }
      : {}),
    logDestination: logs,
  });
  const service = await opts.start(config, infra);
  return {
    ns,
    dbUrl,
    config,
    infra,
    service,
    logs,
    call: serviceClient(`http://127.0.0.1:${service.port}`),
    stop: async () => {
      await service.stop();
      await deleteNamespaceStreams(infra.nc, ns);
      await infra.close();
      if (opts.migrationsDir && ownDatabase) await dropDatabase(dbUrl);
    },
  };
}

/**
 * A TCP relay to the real NATS server that a test can cut: a service's own connection goes
 * through it, so its connection drops and comes back (a real nats.js reconnect) while the
 * shared nats-server and every other connection stay up. While cut, new connections are closed
 * at once (the client keeps retrying).
 */
export async function cuttableRelay(target: URL): Promise<{ url: string; cut(): void; restore(): void; close(): Promise<void> }> {
  let cut = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = net.createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 4222), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `nats://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => {
      cut = true;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
    },
    restore: () => {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
