import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "../core/logger";

export { Redis };

/** A client that fails fast while Redis is down (callers choose their fallback) and reconnects by itself. */
export function createRedis(url: string, logger?: Logger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
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
