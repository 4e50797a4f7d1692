import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "../core/logger";

export { Redis };

/** The scheme of a `redis.url` that names Redis behind Sentinel. */
const SENTINEL_SCHEME = "redis+sentinel://";
/** Sentinel's own port, when a sentinel's address gives none. */
const SENTINEL_PORT = 26379;
/** The query parameters a Sentinel URL may carry: the sentinels' own credentials, when they ask for some. */
const SENTINEL_PARAMS = new Set(["sentinel_username", "sentinel_password"]);

/** What ioredis is given to find its master through Sentinel (its own `sentinels` and `name`). */
export interface SentinelOptions {
  sentinels: Array<{ host: string; port: number }>;
  /** The master's name, as the sentinels monitor it (`sentinel monitor <name> ...`). */
  name: string;
  username?: string;
  password?: string;
  db?: number;
  sentinelUsername?: string;
  sentinelPassword?: string;
}

/** Never echoes the URL itself: it may hold passwords. */
const badSentinelUrl = (problem: string) =>
  new Error(
    `redis.url (REDIS_URL): ${problem}; a Sentinel URL is redis+sentinel://[[user]:password@]host[:port][,host[:port]...]/<master name>[/<db>][?sentinel_password=...&sentinel_username=...]`,
  );

function sentinelAddress(entry: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::([0-9]+))?$/.exec(entry);
  if (!m) throw badSentinelUrl(`a sentinel's address must be host or host:port (IPv6 in brackets)`);
  const port = m[3] === undefined ? SENTINEL_PORT : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw badSentinelUrl("a sentinel's port must be 1 to 65535");
  return { host: (m[1] ?? m[2]) as string, port };
}

function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badSentinelUrl(`the ${what} is not valid percent-encoding`);
  }
}

/**
 * The Sentinel options a `redis.url` of the form `redis+sentinel://...` names, or null for any
 * other URL (a plain `redis://` one goes to ioredis as it is). The user and password before the
 * `@` are the Redis servers' (as in a `redis://` URL); the comma-separated addresses are the
 * sentinels' (port 26379 unless given); the path is the master's name, then the database; the
 * sentinels' own credentials, when they require any, are the `sentinel_username` and
 * `sentinel_password` parameters. Throws on a malformed one, naming the problem, never the URL.
 */
export function sentinelOptions(url: string): SentinelOptions | null {
  if (!url.toLowerCase().startsWith(SENTINEL_SCHEME)) return null;
  let rest = url.slice(SENTINEL_SCHEME.length);
  const q = rest.indexOf("?");
  const query = q >= 0 ? rest.slice(q + 1) : "";
  if (q >= 0) rest = rest.slice(0, q);
  const slash = rest.indexOf("/");
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1) : "";
  const at = authority.lastIndexOf("@");
  const userinfo = at >= 0 ? authority.slice(0, at) : null;
  const hosts = authority.slice(at + 1);
  if (!hosts) throw badSentinelUrl("it names no sentinel");
  const options: SentinelOptions = { sentinels: hosts.split(",").map((h) => sentinelAddress(h.trim())), name: "" };
  if (userinfo !== null) {
    const colon = userinfo.indexOf(":");
    const username = decoded(colon >= 0 ? userinfo.slice(0, colon) : userinfo, "user");
    if (username) options.username = username;
    if (colon >= 0) options.password = decoded(userinfo.slice(colon + 1), "password");
  }
  const [name = "", db, ...more] = path.split("/");
  options.name = decoded(name, "master name");
  if (!options.name) throw badSentinelUrl("the path must name the master (redis+sentinel://host:26379/mymaster)");
  if (more.length > 0 || (db !== undefined && !/^[0-9]{1,5}$/.test(db)))
    throw badSentinelUrl("after the master's name only a database number may follow");
  if (db !== undefined) options.db = Number(db);
  for (const [key, value] of new URLSearchParams(query)) {
    if (!SENTINEL_PARAMS.has(key)) throw badSentinelUrl(`unknown parameter ${JSON.stringify(key)} (sentinel_username, sentinel_password)`);
    if (key === "sentinel_username") options.sentinelUsername = value;
    else options.sentinelPassword = value;
  }
  return options;
}

/**
 * A client that fails fast while Redis is down (callers choose their fallback) and reconnects by
 * itself. Behind Sentinel (`redis+sentinel://`, see sentinelOptions) it asks the sentinels for
 * the master, follows a failover as soon as they announce it (ioredis' failover detector), and
 * asks again on every reconnect, so tickets and caches survive a Redis failover.
 */
export function createRedis(url: string, logger?: Logger): Redis {
  const retryStrategy = (times: number) => Math.min(times * 200, 2000);
  const common = { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, retryStrategy };
  const sentinel = sentinelOptions(url);
  const redis = sentinel
    ? new Redis({ ...common, ...sentinel, sentinelRetryStrategy: retryStrategy, failoverDetector: true })
    : new Redis(url, common);
  let down = false;
  redis.on("error", (err: Error) => {
    if (!down) logger?.warn({ err: { message: err.message } }, "redis unavailable");
    down = true;
  });
  redis.on("ready", () => {
    if (down) logger?.info("redis reconnected");
    down = false;
  });
  return redis;
}

/** Resolves once connected (used at start-up so the first requests do not fail). */
export function redisReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("redis not ready")), timeoutMs);
    redis.once("ready", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * A Lua script run by its SHA1 (EVALSHA), so a call sends the digest rather than the whole source
 * and Redis skips hashing it again; when Redis does not hold the script (it restarted, or SCRIPT
 * FLUSH) the call is made once more with the source (EVAL), which loads it for the next ones.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[] = []): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith("NOSCRIPT")) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
