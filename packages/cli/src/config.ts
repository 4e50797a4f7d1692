import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** What `burnbox login` keeps between runs. */
export interface StoredConfig {
  base_url?: string;
  api_key?: string;
  access_token?: string;
  refresh_token?: string;
  /** What `burnbox init` set up: the default of --org, --team and --domain-assignment. */
  org_id?: string;
  team_id?: string;
  domain_assignment_id?: string;
}

export const DEFAULT_BASE_URL = "http://localhost:8080";

/** `BURNBOX_CONFIG`, else `$XDG_CONFIG_HOME/burnbox/config.json`, else `~/.config/burnbox/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.BURNBOX_CONFIG) return env.BURNBOX_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "burnbox", "config.json");
}

export function readConfig(file: string): StoredConfig {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StoredConfig;
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
