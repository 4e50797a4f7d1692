import type { Redis } from "ioredis";
import type { Logger } from "@burnbox/service-kit";

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
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

/**
 * Fixed-window counters in Redis, so every gateway replica shares one count. When Redis is
 * unreachable the gateway fails open (logs, allows) rather than refusing all traffic.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  private window(rule: RateRule, now: number) {
    const index = Math.floor(now / rule.windowMs);
    const resetMs = (index + 1) * rule.windowMs;
    return { key: `${this.prefix}rl:${rule.name}:${rule.subject}:${index}`, resetMs };
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
      counts = await Promise.all(
        windows.map(async (w) =>
          count ? Number(await this.redis.eval(HIT, 1, w.key, String(w.rule.windowMs))) : Number((await this.redis.get(w.key)) ?? 0),
        ),
      );
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, "rate limiter unavailable; allowing request");
      counts = windows.map(() => 0);
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
