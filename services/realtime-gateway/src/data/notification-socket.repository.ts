import { LuaScript, type Redis } from "@burnbox/service-kit/data";

// KEYS[1] the user's set; ARGV: socket id, now (ms), lease (ms), limit. Drops lapsed leases, then
// takes one if the user holds fewer than the limit. 1 taken, 0 refused.
const CLAIM = new LuaScript(`
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[2])
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call("ZADD", KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return 1`);

/**
 * The notification sockets each user holds, across every replica: a lease per socket in a Redis
 * sorted set (score = when it lapses). A replica renews its sockets' leases while they are open and
 * releases them on close; a replica that dies leaves leases that lapse on their own.
 */
export class NotificationSocketRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(userId: string): string {
    return `${this.prefix}ws:notification-sockets:${userId}`;
  }

  /** Takes a lease for `socketId` unless the user already holds `limit` live ones. */
  async claim(userId: string, socketId: string, opts: { now: number; leaseMs: number; limit: number }): Promise<boolean> {
    const taken = await CLAIM.run(this.redis, [this.key(userId)], [socketId, opts.now, opts.leaseMs, opts.limit]);
    return Number(taken) === 1;
  }

  /** Extends the leases of sockets still open (only those still in the set). */
  async renew(leases: Array<{ userId: string; socketId: string }>, opts: { now: number; leaseMs: number }): Promise<void> {
    if (leases.length === 0) return;
    const until = opts.now + opts.leaseMs;
    const pipeline = this.redis.pipeline();
    for (const l of leases) {
      pipeline.zadd(this.key(l.userId), "XX", until, l.socketId);
      pipeline.pexpire(this.key(l.userId), opts.leaseMs);
    }
    await pipeline.exec();
  }

  async release(userId: string, socketId: string): Promise<void> {
    await this.redis.zrem(this.key(userId), socketId);
  }
}
