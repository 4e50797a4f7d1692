import { Redis } from "ioredis";
import type { Logger } from "./logger";

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
