import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ConfigError, baseConfigShape, loadConfig } from "./config";

const Schema = z.object({
  ...baseConfigShape("svc", 9000),
  defaults: z
    .object({ max_sessions_per_user: z.number().int().min(1).default(5), webhook_timeout: z.string().default("10s") })
    .prefault({}),
  domains: z.object({ trusted: z.array(z.string()).default([]) }).prefault({}),
});
const secret = "s".repeat(32);

describe("loadConfig", () => {
  it("when only required values are set, then defaults fill the rest", () => {
    const c = loadConfig(Schema, { BB_INTERNAL_SECRET: secret });
    expect(c.http.port).toBe(9000);
    expect(c.defaults.max_sessions_per_user).toBe(5);
    expect(c.nats.namespace).toBe("burnbox");
  });

  it("when env vars name dotted keys, then they are typed: numbers, booleans, comma lists and URL aliases", () => {
    const c = loadConfig(Schema, {
      BB_INTERNAL_SECRET: secret,
      BB_DEFAULTS_MAX_SESSIONS_PER_USER: "7",
      BB_METRICS_ENABLED: "false",
      BB_DOMAINS_TRUSTED: "a.test, b.test",
      REDIS_URL: "redis://r:6379",
      BB_HTTP_PORT: "1234",
    });
    expect(c.defaults.max_sessions_per_user).toBe(7);
    expect(c.metrics.enabled).toBe(false);
    expect(c.domains.trusted).toEqual(["a.test", "b.test"]);
    expect(c.redis.url).toBe("redis://r:6379");
    expect(c.http.port).toBe(1234);
  });

  it("when a YAML file is given, then env still wins over it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bbcfg-"));
    const file = path.join(dir, "c.yaml");
    writeFileSync(file, `internal:\n  secret: ${secret}\ndefaults:\n  max_sessions_per_user: 3\n  webhook_timeout: 5s\n`);
    const c = loadConfig(Schema, { BB_CONFIG_FILE: file, BB_DEFAULTS_WEBHOOK_TIMEOUT: "2s" });
    expect(c.defaults.max_sessions_per_user).toBe(3);
    expect(c.defaults.webhook_timeout).toBe("2s");
  });

  it("when values are invalid, then every problem is listed with its env var name", () => {
    let caught: unknown;
    try {
      loadConfig(Schema, { BB_INTERNAL_SECRET: "short", BB_DEFAULTS_MAX_SESSIONS_PER_USER: "zero" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain("internal.secret (BB_INTERNAL_SECRET)");
    expect(message).toContain("defaults.max_sessions_per_user (BB_DEFAULTS_MAX_SESSIONS_PER_USER)");
  });
});
