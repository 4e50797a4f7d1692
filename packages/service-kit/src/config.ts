import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

/**
 * Config = schema defaults <- optional YAML file (BB_CONFIG_FILE) <- environment.
 * Every leaf `a.b_c` reads env `BB_A_B_C`; lists are comma-separated. A few leaves also
 * read the conventional names (DATABASE_URL, REDIS_URL, NATS_URL).
 */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  - ${issues.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const ALIASES: Record<string, string> = {
  "database.url": "DATABASE_URL",
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

export function loadConfig<S extends z.ZodObject>(schema: S, env: Env, overrides: Record<string, unknown> = {}): z.infer<S> {
  let base: Record<string, unknown> = {};
  const file = env.BB_CONFIG_FILE;
  if (file) {
    const parsed: unknown = parseYaml(readFileSync(file, "utf8"));
    if (parsed !== null && typeof parsed === "object") base = parsed as Record<string, unknown>;
  }
  for (const leaf of leaves(schema)) {
    const key = leaf.path.join(".");
    const alias = ALIASES[key];
    const raw = env[envName(leaf.path)] ?? (alias ? env[alias] : undefined);
    if (raw !== undefined) setPath(base, leaf.path, envValue(raw, leaf.kind));
  }
  for (const [k, v] of Object.entries(overrides)) setPath(base, k.split("."), v);
  const result = schema.safeParse(base);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => {
        const path = i.path.map(String);
        return `${path.join(".") || "(root)"} (${envName(path)}): ${i.message}`;
      }),
    );
  }
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
      namespace: z
        .string()
        .regex(/^[a-z0-9_-]+$/)
        .default("burnbox"),
    })
    .prefault({}),
  internal: z.object({ secret }),
  metrics: z.object({ enabled: z.boolean().default(true), path: z.string().startsWith("/").default("/metrics") }).prefault({}),
  service: z.object({ name: z.string().default(service) }).prefault({}),
});

export const databaseShape = (dbName: string) => ({
  database: z.object({ url: z.string().default(`postgresql://postgres@127.0.0.1:5432/${dbName}`) }).prefault({}),
});

export { secret as secretSchema };
