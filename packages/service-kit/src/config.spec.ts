import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ConfigError, baseConfigShape, configWarnings, encryptionShape, loadConfig } from "./config";

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

  it("when the config file names a setting the schema does not have, then loading fails and names it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bb-config-"));
    const file = path.join(dir, "config.yaml");
    writeFileSync(file, "defaults:\n  max_sesions_per_user: 3\nrate_limits:\n  x: 1\n");
    let caught: unknown;
    try {
      loadConfig(Schema, { BB_INTERNAL_SECRET: secret, BB_CONFIG_FILE: file });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues).toEqual(
      expect.arrayContaining([expect.stringContaining("defaults.max_sesions_per_user"), expect.stringContaining("rate_limits")]),
    );
  });

  it("when a BB_ variable matches no setting, then the loaded config carries a warning naming it (logged at start)", () => {
    const c = loadConfig(Schema, { BB_INTERNAL_SECRET: secret, BB_DEFAULTS_MAX_SESION: "3", BB_CONFIG_FILE: undefined });
    expect(configWarnings(c)).toEqual(["BB_DEFAULTS_MAX_SESION: not a setting of this service; ignored"]);
    expect(Object.keys(c)).not.toContain("BB_DEFAULTS_MAX_SESION");
  });
});

describe("encryptionShape", () => {
  const WithKey = z.object({ ...baseConfigShape("svc", 9000), ...encryptionShape() });

  it("when no key is set, then it is empty (storing a secret is refused later)", () => {
    expect(loadConfig(WithKey, { BB_INTERNAL_SECRET: secret }).encryption.key).toBe("");
  });

  it("when the key is 64 hex, then it loads; anything else is refused naming BB_ENCRYPTION_KEY", () => {
    const key = "aB".repeat(32);
    expect(loadConfig(WithKey, { BB_INTERNAL_SECRET: secret, BB_ENCRYPTION_KEY: key }).encryption.key).toBe(key);
    expect(() => loadConfig(WithKey, { BB_INTERNAL_SECRET: secret, BB_ENCRYPTION_KEY: "zz".repeat(32) })).toThrow(/BB_ENCRYPTION_KEY/);
  });
});
