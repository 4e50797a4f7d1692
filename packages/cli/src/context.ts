import type { Command } from "commander";
import { BurnBox, type WebSocketConstructor } from "@burnbox/sdk";
import { configPath, DEFAULT_BASE_URL, jwtExpiry, loginFor, originOf, readConfig, withLogin, writeConfig } from "./config.js";
import type { Terminal } from "./terminal.js";

/** Where the program reads and writes: the process's streams and environment in cli.ts, stand-ins in tests. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  stdin: () => Promise<string>;
}

/** What every command module is given: the client, the terminal, the config file's path, the process's io. */
export interface CommandContext {
  client: (opts?: { needAuth?: boolean }) => Promise<BurnBox>;
  /** Where every line goes (text made safe for a terminal; JSON). */
  term: Terminal;
  file: () => string;
  io: Io;
}

async function webSocketClass(): Promise<WebSocketConstructor> {
  const g = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (g) return g;
  const mod = await import("ws");
  return mod.WebSocket;
}

export function commandContext(program: Command, io: Io, term: Terminal): CommandContext {
  const file = () => configPath(io.env);

  /**
   * The client: base URL from --url, BURNBOX_URL, the config file; credential from BURNBOX_API_KEY,
   * else the login the config file keeps for that URL's origin (never one made at another).
   */
  async function client(opts: { needAuth?: boolean } = {}): Promise<BurnBox> {
    const g = program.opts<{ url?: string }>();
    const config = readConfig(file());
    const baseUrl = g.url ?? io.env.BURNBOX_URL ?? config.base_url ?? DEFAULT_BASE_URL;
    const origin = originOf(baseUrl);
    const login = loginFor(config, origin);
    const apiKey = io.env.BURNBOX_API_KEY ?? login?.api_key;
    const bb = new BurnBox({ baseUrl, WebSocket: await webSocketClass(), ...(apiKey ? { apiKey } : {}) });
    if (!apiKey && login?.access_token) {
      const exp = jwtExpiry(login.access_token);
      if (exp !== undefined && exp * 1000 < Date.now() + 30_000 && login.refresh_token) {
        const r = await bb.api.POST("/auth/refresh", { body: { refresh_token: login.refresh_token } });
        if (r.data) {
          const tokens = { access_token: r.data.access_token, refresh_token: r.data.refresh_token };
          writeConfig(file(), withLogin(readConfig(file()), origin, tokens));
          bb.setToken(r.data.access_token);
          return bb;
        }
      }
      bb.setToken(login.access_token);
    } else if (!apiKey && opts.needAuth !== false) {
      const elsewhere = Object.keys(config.logins ?? {}).filter((o) => loginFor(config, o));
      throw new Error(
        `not logged in to ${origin}: run \`burnbox login --url ${origin}\`, or set BURNBOX_API_KEY` +
          (elsewhere.length > 0 ? ` (the stored logins are for ${elsewhere.join(", ")} only)` : ""),
      );
    }
    return bb;
  }

  return { client, term, file, io };
}
