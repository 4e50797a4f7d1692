import { LuaScript, type Redis } from "@burnbox/service-kit/data";
import { ATTEMPT_MEMORY_MS, type AttemptCounter } from "../domain/smtp/attempt-counter";

/** Each key counted and its expiry pushed back, atomically: `KEYS` the counters, `ARGV[1]` the expiry (ms). */
const COUNT = new LuaScript(`
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  redis.call('PEXPIRE', key, ARGV[1])
end
return counts`);

/**
 * The attempt counts in Redis, under `<prefix>smtp:attempts:<key>`: one script call per message,
 * whatever its number of recipients with `defer_first`, so every replica sees one count. Without
 * Redis (none configured) every count is refused, so the sender is told to retry.
 */
export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly memoryMs = ATTEMPT_MEMORY_MS,
  ) {}

  async count(keys: readonly string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    if (!this.redis) throw new Error("no Redis to count delivery attempts in");
    const counts = await COUNT.run(
      this.redis,
      keys.map((k) => `${this.prefix}smtp:attempts:${k}`),
      [this.memoryMs],
    );
    return (counts as Array<number | string>).map(Number);
  }
}
