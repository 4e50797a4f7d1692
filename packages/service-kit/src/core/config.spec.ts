import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import {
  ConfigError,
  baseConfigShape,
  configWarnings,
  encryptionShape,
  isLocalHostname,
  loadConfig,
  mailerPortsShape,
  requiredInProduction,
} from "./config";

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
    expect(configWarnings(c)).toEqual(["BB_DEFAULTS_MAX_SESION: not a setting of any service; ignored"]);
    expect(Object.keys(c)).not.toContain("BB_DEFAULTS_MAX_SESION");
  });

  it("when a BB_ variable is another service's setting (one environment for all, as under npm start), then it is not warned about", () => {
    const env = { BB_INTERNAL_SECRET: secret, BB_BASE_URL: "http://localhost:8080", BB_SETUP_TOKEN: "t", BB_CONSOLE_DIR: "/x" };
    expect(configWarnings(loadConfig(Schema, env))).toEqual([]);
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

describe("mailerPortsShape", () => {
  const WithPorts = z.object({ ...baseConfigShape("svc", 9000), ...mailerPortsShape() });

  it("when nothing is set, then the SMTP submission and relay ports are allowed", () => {
    expect(loadConfig(WithPorts, { BB_INTERNAL_SECRET: secret }).mailer.allowed_ports).toEqual([25, 465, 587, 2525]);
  });

  it("when BB_MAILER_ALLOWED_PORTS lists ports, then they replace the defaults; a port outside 1..65535 is refused naming it", () => {
    expect(loadConfig(WithPorts, { BB_INTERNAL_SECRET: secret, BB_MAILER_ALLOWED_PORTS: "587, 1025,2587" }).mailer.allowed_ports).toEqual([
      587, 1025, 2587,
    ]);
    expect(() => loadConfig(WithPorts, { BB_INTERNAL_SECRET: secret, BB_MAILER_ALLOWED_PORTS: "587,70000" })).toThrow(
      /BB_MAILER_ALLOWED_PORTS|mailer\.allowed_ports/,
    );
    expect(() => loadConfig(WithPorts, { BB_INTERNAL_SECRET: secret, BB_MAILER_ALLOWED_PORTS: "smtp" })).toThrow(
      /BB_MAILER_ALLOWED_PORTS|mailer\.allowed_ports/,
    );
  });
});

describe("requiredInProduction", () => {
  const Public = requiredInProduction(
    z.object({
      ...baseConfigShape("svc", 9000),
      base_url: z.string().url().default("http://localhost:8080"),
      smtp: z.object({ hostname: z.string().default("mx.burnbox.local") }).prefault({}),
    }),
    [
      { path: ["base_url"], kind: "url" },
      { path: ["smtp", "hostname"], kind: "hostname" },
    ],
  );

  it("when the mode is development (the default), then the local defaults are accepted", () => {
    const c = loadConfig(Public, { BB_INTERNAL_SECRET: secret });
    expect(c.deployment.mode).toBe("development");
    expect(c.base_url).toBe("http://localhost:8080");
  });

  it("when the mode is production and the public names are left local, then loading fails naming each setting and its variable", () => {
    const load = () =>
      loadConfig(Public, { BB_INTERNAL_SECRET: secret, BB_DEPLOYMENT_MODE: "production", BB_SMTP_HOSTNAME: "mx.corp.internal" });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/base_url \(BB_BASE_URL\): required when deployment\.mode is production/);
    expect(load).toThrow(/smtp\.hostname \(BB_SMTP_HOSTNAME\): required when deployment\.mode is production.*"mx\.corp\.internal"/);
  });

  it("when the mode is production and both are public names, then it loads", () => {
    const c = loadConfig(Public, {
      BB_INTERNAL_SECRET: secret,
      BB_DEPLOYMENT_MODE: "production",
      BB_BASE_URL: "https://burnbox.example.com",
      BB_SMTP_HOSTNAME: "mx.example.com",
    });
    expect(c.smtp.hostname).toBe("mx.example.com");
  });

  it.each(["localhost", "app.localhost", "mx.burnbox.local", "db.internal", "127.0.0.1", "::1", ""])("%j is a local host name", (name) => {
    expect(isLocalHostname(name)).toBe(true);
  });

  it.each(["mx.example.com", "burnbox.example.org", "203.0.113.7"])("%j is not a local host name", (name) => {
    expect(isLocalHostname(name)).toBe(false);
  });
});

describe("metrics.port", () => {
  it("when unset, then /metrics stays on the HTTP port; BB_METRICS_PORT moves it to a port of its own", () => {
    expect(loadConfig(Schema, { BB_INTERNAL_SECRET: secret }).metrics.port).toBeUndefined();
    expect(loadConfig(Schema, { BB_INTERNAL_SECRET: secret, BB_METRICS_PORT: "9464" }).metrics.port).toBe(9464);
  });
});
