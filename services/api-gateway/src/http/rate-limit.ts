import type { Redis } from "ioredis";
import { LuaScript } from "@burnbox/service-kit/data";
import type { Logger, Clock } from "@burnbox/service-kit/runtime";

export interface RateRule {
  /** Bucket name, part of the Redis key. */
  name: string;
  /** Who is counted: a user id or an IP. */
  subject: string;
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** The rule whose figures go into the X-RateLimit-* headers (the tightest one). */
  limit: number;
  remaining: number;
  /** Unix seconds at which that window rolls over. */
  reset: number;
  /** Whole seconds until the exceeded window rolls over (>= 1), when not allowed. */
  retryAfter: number;
}

// INCR and set the expiry on first use, atomically: a crash between the two cannot leave an immortal key.
const HIT = new LuaScript(`local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`);

/**
 * The same fixed windows counted in this process, for when Redis cannot be reached: each replica
 * then enforces the configured limits on what it sees (with N replicas a client may get up to N
 * times the limit until Redis is back), rather than letting everything through or refusing all.
 */
export class LocalWindows {
  private readonly counts = new Map<string, { count: number; expiresAt: number }>();

  constructor(private readonly maxKeys = 100_000) {}

  count(key: string, windowEndMs: number, now: number, increment: boolean): number {
    const entry = this.counts.get(key);
    const current = entry && entry.expiresAt > now ? entry.count : 0;
    if (!increment) return current;
    if (this.counts.size >= this.maxKeys) this.prune(now);
    this.counts.set(key, { count: current + 1, expiresAt: windowEndMs });
    return current + 1;
  }

  private prune(now: number): void {
    for (const [k, v] of this.counts) if (v.expiresAt <= now) this.counts.delete(k);
    if (this.counts.size >= this.maxKeys) this.counts.clear(); // a flood of distinct subjects: start over rather than grow
  }
}

/**
 * Fixed-window counters in Redis, so every gateway replica shares one count. When Redis is
 * unreachable each replica counts the same windows locally (LocalWindows) until it is back.
 */
export class RateLimiter {
  private readonly local = new LocalWindows();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly now: Clock = Date.now,
  ) {}

  private window(rule: RateRule, now: number) {
    const index = Math.floor(now / rule.windowMs);
    const resetMs = (index + 1) * rule.windowMs;
    return { key: `${this.prefix}rl:${rule.name}:${rule.subject}:${index}`, resetMs };
  }

  /** A window's count: incremented (and its expiry set on first use) when counting, else read. */
  private async read(w: { rule: RateRule; key: string }, count: boolean): Promise<number> {
    return count ? Number(await HIT.run(this.redis, [w.key], [w.rule.windowMs])) : Number((await this.redis.get(w.key)) ?? 0);
  }

  async hit(rules: RateRule[]): Promise<RateDecision> {
    return this.evaluate(rules, true);
  }

  /** Reads the windows without counting (health endpoints still carry the headers). */
  async peek(rules: RateRule[]): Promise<RateDecision> {
    return this.evaluate(rules, false);
  }

  private async evaluate(rules: RateRule[], count: boolean): Promise<RateDecision> {
    const now = this.now();
    const windows = rules.map((r) => ({ rule: r, ...this.window(r, now) }));
    let counts: number[];
    try {
      // one rule (nearly every request): its command alone, without Promise.all
      counts =
        windows.length === 1
          ? [await this.read(windows[0] as (typeof windows)[number], count)]
          : await Promise.all(windows.map((w) => this.read(w, count)));
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, "rate limiter's Redis unavailable; counting in this replica");
      counts = windows.map((w) => this.local.count(w.key, w.resetMs, now, count));
    }
    let tightest = 0;
    let exceeded: number | null = null;
    windows.forEach((w, i) => {
      const remaining = w.rule.limit - (counts[i] ?? 0);
      const t = windows[tightest] as (typeof windows)[number];
      if (remaining < t.rule.limit - (counts[tightest] ?? 0)) tightest = i;
      if (remaining < 0 && (exceeded === null || w.resetMs > (windows[exceeded] as (typeof windows)[number]).resetMs)) exceeded = i;
    });
    const shown = windows[exceeded ?? tightest] as (typeof windows)[number];
    const shownCount = counts[exceeded ?? tightest] ?? 0;
    return {
      allowed: exceeded === null,
      limit: shown.rule.limit,
      remaining: Math.max(0, shown.rule.limit - shownCount),
      reset: Math.ceil(shown.resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((shown.resetMs - now) / 1000)),
    };
  }
}
