// Settings from the environment and the command line; pure, so a unit test covers every case.
import { isIPv4 } from "node:net";
import { BurnBox } from "@burnbox/sdk";

export interface Settings {
  baseUrl: string;
  apiKey: string;
  /** Absent: stdio. `token`: the bearer token every HTTP request must carry (required beyond loopback). */
  http?: { port: number; host: string; token?: string };
}

/** The shortest BURNBOX_MCP_TOKEN taken: a guessable token would be no lock. */
export const MIN_TOKEN_LENGTH = 16;

/** True for an address only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  if (isIPv4(h)) return h.startsWith("127.");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith("127.");
}

export const USAGE = `Usage: burnbox-mcp [--http <port>] [--host <address>]

A Model Context Protocol server for BurnBox. Speaks MCP over stdio unless --http is given, then
streamable HTTP at http://<host>:<port>/mcp (host 127.0.0.1 unless --host says otherwise).

Environment:
  BURNBOX_URL        where BurnBox answers, e.g. https://burnbox.example.com (required)
  BURNBOX_API_KEY    a team API key, bb_... (required)
  BURNBOX_MCP_TOKEN  over HTTP: every request must carry "Authorization: Bearer <it>" (at least
                     ${MIN_TOKEN_LENGTH} characters); required when --host is not a loopback address`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The settings for `args` (argv after the script) and `env`; throws UsageError on anything wrong. */
export function readSettings(args: readonly string[], env: NodeJS.ProcessEnv): Settings {
  let port: number | undefined;
  let host = "127.0.0.1";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--http") {
      const v = value();
      port = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
      if (!(port >= 0 && port <= 65535)) throw new UsageError(`--http: not a port: ${v}`);
    } else if (arg === "--host") host = value();
    else throw new UsageError(`unknown argument: ${arg}`);
  }
  const baseUrl = env.BURNBOX_URL?.trim();
  const apiKey = env.BURNBOX_API_KEY?.trim();
  if (!baseUrl) throw new UsageError("BURNBOX_URL is not set");
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError("BURNBOX_URL must start with http:// or https://");
  if (!apiKey) throw new UsageError("BURNBOX_API_KEY is not set");
  if (!apiKey.startsWith("bb_")) throw new UsageError("BURNBOX_API_KEY must be a team API key (bb_...)");
  if (port === undefined) return { baseUrl, apiKey };
  const token = env.BURNBOX_MCP_TOKEN?.trim();
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(`BURNBOX_MCP_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters (e.g. openssl rand -base64 32)`);
  }
  if (!token && !isLoopbackHost(host)) {
    throw new UsageError(
      `--host ${host} listens beyond loopback, where anyone who reaches the port would act with the API key: ` +
        `set BURNBOX_MCP_TOKEN (a secret every request must send as "Authorization: Bearer <token>"), or bind 127.0.0.1`,
    );
  }
  return { baseUrl, apiKey, http: { port, host, ...(token ? { token } : {}) } };
}

export const clientFor = (s: Settings): BurnBox => new BurnBox({ baseUrl: s.baseUrl, apiKey: s.apiKey });
