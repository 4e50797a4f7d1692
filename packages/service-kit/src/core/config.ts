import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { Duration } from "@burnbox/contracts";
import { KNOWN_SETTINGS } from "./known-settings";

/**
 * Config = schema defaults <- optional YAML file (BB_CONFIG_FILE) <- environment.
 * Every leaf `a.b_c` reads env `BB_A_B_C`; lists are comma-separated. A few leaves also
 * read the conventional names (REDIS_URL, NATS_URL). A service's database URL is, first found:
 * BB_DATABASE_URL, then `<SERVICE>_DATABASE_URL` (IDENTITY_DATABASE_URL...), then DATABASE_URL
 * read as the server only: its database name is replaced by the service's own, so services that
 * share one environment never share a database.
 */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  - ${issues.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const ALIASES: Record<string, string> = {
  "redis.url": "REDIS_URL",
  "nats.url": "NATS_URL",
};

interface Leaf {
  path: string[];
  kind: "string" | "number" | "boolean" | "array" | "other";
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = s.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if ((def.type === "default" || def.type === "optional" || def.type === "nullable" || def.type === "prefault") && def.innerType)
      s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else return s;
  }
}

function leaves(schema: z.ZodType, prefix: string[] = []): Leaf[] {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) {
    return Object.entries(s.shape as Record<string, z.ZodType>).flatMap(([k, v]) => leaves(v, [...prefix, k]));
  }
  const t = s.def.type;
  const kind: Leaf["kind"] =
    t === "string" || t === "enum" ? "string" : t === "number" ? "number" : t === "boolean" ? "boolean" : t === "array" ? "array" : "other";
  return [{ path: prefix, kind }];
}

function envValue(raw: string, kind: Leaf["kind"]): unknown {
  switch (kind) {
    case "number":
      return raw.trim() === "" ? undefined : Number(raw);
    case "boolean":
      return /^(1|true|yes|on)$/i.test(raw.trim()) ? true : /^(0|false|no|off)$/i.test(raw.trim()) ? false : raw;
    case "array":
      return raw
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x.length > 0);
    case "string":
    case "other":
      return raw;
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = target;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (typeof next !== "object" || next === null) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1] as string] = value;
}

export function envName(path: string[]): string {
  return `BB_${path.join("_").toUpperCase()}`;
}

/**
 * The environment variables a schema reads (`BB_A_B_C` for every leaf `a.b_c`), sorted:
 * deploy/local/known-settings.mjs lists every service's in known-settings.ts.
 */
export function settingNames(schema: z.ZodType): string[] {
  return [...new Set(leaves(schema).map((l) => envName(l.path)))].sort();
}

/** Dotted paths in `value` that name no setting of the schema (typos in a config file). */
function unknownPaths(schema: z.ZodType, value: unknown, prefix: string[] = []): string[] {
  const s = unwrap(schema);
  if (!(s instanceof z.ZodObject) || value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const shape = s.shape as Record<string, z.ZodType>;
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const child = shape[k];
    return child ? unknownPaths(child, v, [...prefix, k]) : [[...prefix, k].join(".")];
  });
}

/** Variables read by the tooling rather than by a service's schema. */
const TOOLING_ENV = new Set([
  "BB_CONFIG_FILE",
  // docker-compose.yml's and `npm start`'s own (the stores' passwords, published ports, image tag)
  "BB_POSTGRES_PASSWORD",
  "BB_REDIS_PASSWORD",
  "BB_S3_SECRET_KEY",
  "BB_SMTP_HOST_PORT",
  "BB_VERSION",
  // the end-to-end runner's
  "BB_E2E_CHROMIUM",
  "BB_E2E_REPLICAS",
]);
/** Every service's settings: one environment often serves them all (`npm start`, compose). */
const ANY_SERVICE = new Set(KNOWN_SETTINGS);
const WARNINGS = Symbol.for("burnbox.config.warnings");

/**
 * What a loaded config could not use: `BB_*` variables that match no setting of any service
 * (typos): a setting of another service is not one, since several services often share one
 * environment. They are logged at start (startInfra), not fatal. Unknown keys in a config file
 * are fatal (loadConfig lists them).
 */
export function configWarnings(config: object): string[] {
  return ((config as Record<symbol, unknown>)[WARNINGS] as string[] | undefined) ?? [];
}

export function loadConfig<S extends z.ZodObject>(schema: S, env: Env, overrides: Record<string, unknown> = {}): z.infer<S> {
  let base: Record<string, unknown> = {};
  const file = env.BB_CONFIG_FILE;
  const problems: string[] = [];
  if (file) {
    const parsed: unknown = parseYaml(readFileSync(file, "utf8"));
    if (parsed !== null && typeof parsed === "object") base = parsed as Record<string, unknown>;
    for (const path of unknownPaths(schema, base)) problems.push(`${path} (in ${file}): unknown setting`);
  }
  const known = new Set(leaves(schema).map((l) => envName(l.path)));
  const unknownEnv = Object.keys(env)
    .filter((k) => k.startsWith("BB_") && !k.startsWith("BB_TEST_") && !TOOLING_ENV.has(k) && !known.has(k) && !ANY_SERVICE.has(k))
    .sort();
  for (const leaf of leaves(schema)) {
    const key = leaf.path.join(".");
    const alias = ALIASES[key];
    const raw = env[envName(leaf.path)] ?? (alias ? env[alias] : undefined);
    if (raw !== undefined) setPath(base, leaf.path, envValue(raw, leaf.kind));
  }
  const dbName = DATABASE_NAMES.get((schema.shape as Record<string, z.ZodType>).database as z.ZodType);
  if (dbName && env.BB_DATABASE_URL === undefined) {
    const url = databaseUrlFromEnv(env, dbName);
    if (url !== undefined) setPath(base, ["database", "url"], url);
  }
  for (const [k, v] of Object.entries(overrides)) setPath(base, k.split("."), v);
  const result = schema.safeParse(base);
  if (!result.success) {
    for (const i of result.error.issues) {
      const path = i.path.map(String);
      problems.push(`${path.join(".") || "(root)"} (${envName(path)}): ${i.message}`);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  Object.defineProperty(result.data, WARNINGS, {
    value: unknownEnv.map((k) => `${k}: not a setting of any service; ignored`),
    enumerable: false,
  });
  return result.data;
}

const secret = z.string().min(32, "must be at least 32 characters");

/** Settings every service shares; each service extends this with its own. */
export const baseConfigShape = (service: string, port: number) => ({
  http: z.object({ port: z.number().int().min(0).max(65535).default(port), host: z.string().default("0.0.0.0") }).prefault({}),
  log: z.object({ level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info") }).prefault({}),
  redis: z.object({ url: z.string().default("redis://127.0.0.1:6379"), key_prefix: z.string().default("bb:") }).prefault({}),
  nats: z
    .object({
      url: z.string().default("nats://127.0.0.1:4222"),
      /** This service's NATS user and password (a user per service: the server's `authorization.users`); unset, the URL's `user:password@` if any. */
      user: z.string().optional(),
      password: z.string().optional(),
      namespace: z
        .string()
        .regex(/^[a-z0-9_-]+$/)
        .default("burnbox"),
      /** Replicas of each JetStream stream: 1 on a single server, 3 on a three-node cluster. */
      stream_replicas: z.number().int().min(1).max(5).default(1),
    })
    .prefault({}),
  internal: z.object({
    /** Signs (the gateway) and checks (every service) the context the gateway sends each request with. */
    secret,
    /**
     * During a rotation, the secret being replaced: a context it signed is accepted too, so that
     * gateways on either secret are served while the Deployments roll; removed once all run the
     * new one (docs/operations.md, "Rotating the internal secret").
     */
    secret_previous: secret.optional(),
  }),
  metrics: z
    .object({
      enabled: z.boolean().default(true),
      path: z.string().startsWith("/").default("/metrics"),
      /**
       * A port of its own for `path` (BB_METRICS_PORT): set, /metrics is served there only and the
       * HTTP port answers it 404, so a proxy in front of the HTTP port can never expose it. Unset
       * (the default, as `npm start` runs), it is served on the HTTP port.
       */
      port: z.number().int().min(0).max(65535).optional(),
    })
    .prefault({}),
  service: z.object({ name: z.string().default(service) }).prefault({}),
  /**
   * `production` (BB_DEPLOYMENT_MODE) makes the settings an installation cannot run on with their
   * local defaults required: a service refuses to start while one still names localhost or a
   * `.local` host (identity's `base_url`; tenancy's and the intake's `smtp.hostname`). The default,
   * `development`, keeps `npm start` and the tests on local names.
   */
  deployment: z.object({ mode: z.enum(["development", "production"]).default("development") }).prefault({}),
  shutdown: z
    .object({
      /**
       * After SIGTERM, readiness fails at once and the process keeps serving this long, so the
       * endpoints drop it before it stops accepting (0 under `npm start` and in tests).
       */
      drain_delay: Duration.default("5s"),
      /** Then in-flight requests get this long to finish before their connections are cut. */
      drain_timeout: Duration.default("20s"),
    })
    .prefault({}),
});

/** A host name no one outside this machine or network can reach: localhost, *.localhost, *.local, *.internal, loopback. */
export function isLocalHostname(name: string): boolean {
  const host = name
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[|\]$/g, "");
  return (
    host === "" ||
    host === "localhost" ||
    /\.(localhost|local|internal)$/.test(host) ||
    /^127\./.test(host) ||
    host === "::1" ||
    host === "0.0.0.0"
  );
}

/**
 * The schema with the settings `production` requires (see `deployment.mode`): each named setting
 * (a URL or a host name) must be set to a public name, not left at its local default. The refusal
 * names the setting and its variable, like every other configuration error.
 */
export function requiredInProduction<S extends z.ZodObject>(schema: S, settings: Array<{ path: string[]; kind: "url" | "hostname" }>): S {
  return schema.superRefine((config, ctx) => {
    const c = config as { deployment?: { mode?: string } };
    if (c.deployment?.mode !== "production") return;
    for (const s of settings) {
      const value = s.path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], config);
      let host = typeof value === "string" ? value : "";
      if (s.kind === "url") {
        try {
          host = new URL(host).hostname;
        } catch {
          host = "";
        }
      }
      if (isLocalHostname(host)) {
        ctx.addIssue({
          code: "custom",
          path: s.path,
          message:
            `required when deployment.mode is production (${envName(s.path)}=${s.kind === "url" ? "https://burnbox.example.com" : "mx.example.com"}); ` +
            `${value === undefined || value === "" ? "it is unset" : `${JSON.stringify(value)} names a local host`}`,
        });
      }
    }
  });
}

/** The database name each service's `database` setting was made for (see databaseShape). */
const DATABASE_NAMES = new WeakMap<z.ZodType, string>();

/** `IDENTITY_DATABASE_URL` for burnbox_identity, `WEBHOOK_DISPATCHER_DATABASE_URL` for burnbox_webhook_dispatcher. */
export function serviceDatabaseEnvName(dbName: string): string {
  return `${dbName.replace(/^burnbox_/, "").toUpperCase()}_DATABASE_URL`;
}

/**
 * The database URL the environment gives a service whose database is `dbName` (BB_DATABASE_URL
 * aside): its own `<SERVICE>_DATABASE_URL` as it is, else DATABASE_URL with the database name
 * replaced by `dbName`; undefined when neither is set.
 */
export function databaseUrlFromEnv(env: Env, dbName: string): string | undefined {
  const own = env[serviceDatabaseEnvName(dbName)];
  if (own !== undefined && own !== "") return own;
  const server = env.DATABASE_URL;
  if (server === undefined || server === "") return undefined;
  try {
    const url = new URL(server);
    url.pathname = `/${dbName}`;
    return url.toString();
  } catch {
    return server; // not a URL: the schema's check reports nothing better, and the driver will say why
  }
}

export const databaseShape = (dbName: string) => {
  const database = z
    .object({
      url: z.string().default(`postgresql://postgres@127.0.0.1:5432/${dbName}`),
      /**
       * Connections of the process's one pool (Prisma and raw statements share it). A deployment
       * holds the sum over its pods (docs/operations.md): keep it under Postgres's max_connections.
       */
      pool_size: z.number().int().min(2).max(200).default(10),
      /**
       * Apply pending migrations at start (under a session advisory lock). Set false when the
       * migration Job does it, and always behind PgBouncer in transaction mode, where a session
       * lock does not hold (docs/operations.md).
       */
      migrate_on_start: z.boolean().default(true),
    })
    .prefault({});
  DATABASE_NAMES.set(database, dbName);
  return { database };
};

export { secret as secretSchema };

/**
 * `encryption`: the key `SecretBox` seals stored secrets with, the same in every service that
 * holds one (64 hex, AES-256-GCM); empty = storing a secret is refused.
 */
/** What `--migrate-only` reads: the database and the log level, nothing a running service needs besides. */
export function loadMigrationConfig(dbName: string, service: string, env: Env) {
  return loadConfig(
    z.object({
      ...databaseShape(dbName),
      log: baseConfigShape(service, 0).log,
      service: baseConfigShape(service, 0).service,
    }),
    env,
  );
}

export const encryptionShape = () => ({
  encryption: z
    .object({
      key: z
        .string()
        .regex(/^([0-9a-fA-F]{64})?$/, "must be 64 hex characters")
        .default(""),
    })
    .prefault({}),
});

/** SMTP submission and relay: the ports `mailer.allowed_ports` holds unless configured otherwise. */
export const DEFAULT_MAILER_PORTS: readonly number[] = [25, 465, 587, 2525];

/**
 * `mailer.allowed_ports`: the ports a saved platform mailer, and the setup and admin SMTP tests,
 * may connect to (`BB_MAILER_ALLOWED_PORTS`, a comma list). Tenancy checks it at save and probe
 * time, identity at every connection: give both the same list. The defaults refuse relays on
 * other ports (2587, 2465, a local relay on 1025) until the operator adds them.
 */
export const mailerPortsShape = () => ({
  mailer: z
    .object({
      allowed_ports: z
        .array(z.coerce.number().int().min(1).max(65535))
        .min(1)
        .default([...DEFAULT_MAILER_PORTS]),
    })
    .prefault({}),
});

/**
 * `mail.*`: the outbound mailer of the configuration (invites, resets, verification). Identity
 * sends through it while no platform mailer is saved; tenancy shows it as the mailer in effect
 * (`GET /admin/config/mailer`). Empty host = no mail is sent (logged).
 */
export const mailShape = () => ({
  mail: z
    .object({
      smtp_host: z.string().default(""),
      smtp_port: z.number().int().min(1).max(65535).default(587),
      smtp_secure: z.boolean().default(false),
      smtp_user: z.string().default(""),
      smtp_password: z.string().default(""),
      from: z.string().default("BurnBox <no-reply@burnbox.local>"),
    })
    .prefault({}),
});

/**
 * `dns.*`: the resolvers (`host:port`; empty = the system's) every outbound lookup of a
 * user-supplied target asks (the kit's outbound guard), and how long one query may take.
 */
export const dnsShape = () => ({
  dns: z
    .object({
      servers: z.array(z.string()).default([]),
      timeout_ms: z.number().int().positive().default(3000),
    })
    .prefault({}),
});
