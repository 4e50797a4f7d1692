import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { UsageError } from "./usage-error.js";

/** A credential, kept for the one BurnBox (origin) it was issued by. */
export interface StoredLogin {
  access_token?: string;
  refresh_token?: string;
  api_key?: string;
}

/** What `burnbox login` keeps between runs. */
export interface StoredConfig {
  /** The URL of the last login: where a command goes without --url or BURNBOX_URL. */
  base_url?: string;
  /** Each login under the origin it was made at (`https://burnbox.example.com`); sent there and nowhere else. */
  logins?: Record<string, StoredLogin>;
  /** What `burnbox init` set up: the default of --org, --team and --domain-assignment. */
  org_id?: string;
  team_id?: string;
  domain_assignment_id?: string;
}

/** A file written before logins were tied to their URL: the credential at the top, beside `base_url`. */
interface LegacyConfig extends StoredConfig, StoredLogin {}

export const DEFAULT_BASE_URL = "http://localhost:8080";

/** The origin a URL's credentials belong to (scheme, host, port: `http://localhost:8080`); a UsageError for what is not an http(s) URL. */
export function originOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`not an http(s) URL: ${url}`);
  return parsed.origin;
}

/**
 * The stored config, an older file's credential moved under its own origin: the `base_url` it was
 * saved with, or, without one, the default URL (what a login without --url went to). It is sent
 * to that origin only, and the next write keeps it there. One whose URL cannot be read is dropped.
 */
export function upgradeConfig(raw: LegacyConfig): StoredConfig {
  const { access_token, refresh_token, api_key, ...rest } = raw;
  const legacy: StoredLogin = {
    ...(access_token ? { access_token } : {}),
    ...(refresh_token ? { refresh_token } : {}),
    ...(api_key ? { api_key } : {}),
  };
  if (Object.keys(legacy).length === 0) return rest;
  let origin: string;
  try {
    origin = originOf(raw.base_url ?? DEFAULT_BASE_URL);
  } catch {
    return rest;
  }
  return { ...rest, logins: { [origin]: legacy, ...rest.logins } };
}

/** The credential stored for `origin`, if any. */
export function loginFor(config: StoredConfig, origin: string): StoredLogin | undefined {
  const login = config.logins?.[origin];
  return login && (login.access_token || login.api_key) ? login : undefined;
}

/** `config` with `login` as the credential of `origin`, the others kept. */
export function withLogin(config: StoredConfig, origin: string, login: StoredLogin): StoredConfig {
  return { ...config, logins: { ...config.logins, [origin]: login } };
}

/** `BURNBOX_CONFIG`, else `$XDG_CONFIG_HOME/burnbox/config.json`, else `~/.config/burnbox/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.BURNBOX_CONFIG) return env.BURNBOX_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "burnbox", "config.json");
}

export function readConfig(file: string): StoredConfig {
  try {
    return upgradeConfig(JSON.parse(readFileSync(file, "utf8")) as LegacyConfig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Writes the file readable by its owner only: it holds credentials. */
export function writeConfig(file: string, config: StoredConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The seconds-since-epoch expiry of a JWT, or undefined when it has none or is not a JWT. */
export function jwtExpiry(token: string): number | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof claims.exp === "number" ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}
