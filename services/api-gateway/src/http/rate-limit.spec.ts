import { RateLimiter, type RateRule } from "./rate-limit";
import type { Redis } from "ioredis";
import { createLogger } from "@burnbox/service-kit/runtime";

/** An in-memory stand-in for the two Redis calls the limiter makes (unit level only; integration tests use real Redis). */
function fakeRedis(): Redis {
  const m = new Map<string, number>();
  return {
    evalsha: async (_sha: string, _n: number, key: string) => {
      const v = (m.get(key) ?? 0) + 1;
      m.set(key, v);
      return v;
    },
    get: async (key: string) => (m.has(key) ? String(m.get(key)) : null),
  } as unknown as Redis;
}

describe("RateLimiter", () => {
  const logger = createLogger({ service: "test", level: "silent" });
  const rule = (name: string, limit: number, windowMs = 60_000): RateRule => ({ name, subject: "s", limit, windowMs });

  it("when under the limit, then remaining counts down and reset is the window end", async () => {
    const rl = new RateLimiter(fakeRedis(), "p:", logger, () => 90_000);
    const d = await rl.hit([rule("ip", 3)]);
    expect(d).toEqual({ allowed: true, limit: 3, remaining: 2, reset: 120, retryAfter: 30 });
  });

  it("when the limit is passed, then the request is refused with remaining 0", async () => {
    const rl = new RateLimiter(fakeRedis(), "p:", logger, () => 119_500);
    for (let i = 0; i < 2; i++) await rl.hit([rule("ip", 2)]);
    const d = await rl.hit([rule("ip", 2)]);
    expect(d.allowed).toBe(false);
    expect(d.remaining).toBe(0);
    expect(d.retryAfter).toBe(1);
  });

  it("when two rules apply, then the headers show the tightest and the exceeded one decides", async () => {
    const rl = new RateLimiter(fakeRedis(), "p:", logger, () => 0);
    const d1 = await rl.hit([rule("ip", 60), rule("login", 2)]);
    expect(d1).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    await rl.hit([rule("ip", 60), rule("login", 2)]);
    const d3 = await rl.hit([rule("ip", 60), rule("login", 2)]);
    expect(d3).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
  });

  it("when Redis fails, then this replica counts the same window itself and refuses past the limit", async () => {
    const broken = { evalsha: () => Promise.reject(new Error("down")), get: () => Promise.reject(new Error("down")) } as unknown as Redis;
    let now = 10_000;
    const rl = new RateLimiter(broken, "p:", logger, () => now);
    const first = await rl.hit([rule("ip", 2)]);
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    await rl.hit([rule("ip", 2)]);
    expect(await rl.peek([rule("ip", 2)])).toMatchObject({ allowed: true, remaining: 0 });
    expect(await rl.hit([rule("ip", 2)])).toMatchObject({ allowed: false, remaining: 0, retryAfter: 50 });
    now = 60_000; // the next window
    expect(await rl.hit([rule("ip", 2)])).toMatchObject({ allowed: true, remaining: 1 });
  });
});
