import { randomUUID } from "node:crypto";
import { LuaScript, type Redis } from "@burnbox/service-kit/data";
import type { Logger, Clock } from "@burnbox/service-kit/runtime";

/**
 * Takes a slot when fewer than ARGV[3] unexpired ones are held: each slot is a member of the
 * user's sorted set scored by the time it lapses by itself (ARGV[2]), so a replica that dies
 * holding waits leaks nothing for longer than a wait can last. 1 when taken, 0 when full.
 */
const ACQUIRE = new LuaScript(`redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`);

/**
 * How many waits each user holds, over every replica (extensions section 1: at most `limit`). In
 * Redis, so the cap holds whichever replica the gateway sends each wait to. While Redis cannot be
 * reached each replica counts its own waits instead (a user may then hold `limit` per replica),
 * as the gateway's rate limiter does.
 */
export class WaitSlots {
  private readonly local = new Map<string, number>();

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly logger: Logger,
    private readonly now: Clock = Date.now,
  ) {}

  /** A slot for a wait that may last `holdMs`: its release, or null when the user holds `limit` already. */
  async acquire(userId: string, holdMs: number): Promise<(() => void) | null> {
    const key = `${this.prefix}waits:${userId}`;
    const member = randomUUID();
    if (this.redis) {
      try {
        const now = this.now();
        // a slot lapses a minute after the wait's own end at the latest
        const lapses = now + holdMs + 60_000;
        const taken = Number(await ACQUIRE.run(this.redis, [key], [now, lapses, this.limit, member]));
        if (taken === 0) return null;
        const redis = this.redis;
        return () => {
          redis.zrem(key, member).catch((err: unknown) => this.logger.debug({ err }, "could not release a wait slot; it lapses by itself"));
        };
      } catch (err) {
        this.logger.debug({ err }, "redis unreachable: counting this replica's waits");
      }
    }
    const held = this.local.get(userId) ?? 0;
    if (held >= this.limit) return null;
    this.local.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.local.get(userId) ?? 1) - 1;
      if (n <= 0) this.local.delete(userId);
      else this.local.set(userId, n);
    };
  }
}
