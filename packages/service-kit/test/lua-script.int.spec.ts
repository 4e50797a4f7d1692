import { randomUUID } from "node:crypto";
import { testInfra } from "@burnbox/test-kit";
import { LuaScript, Redis } from "../src/data";

/** EVALSHA with the EVAL fallback, against the real Redis. */
describe("LuaScript", () => {
  const redis = new Redis(testInfra.redisUrl);
  const key = `kit-test:lua:${randomUUID()}`;
  const incrBy = new LuaScript("return redis.call('INCRBY', KEYS[1], ARGV[1])");

  afterAll(async () => {
    await redis.del(key, `${key}:hash`);
    redis.disconnect();
  });

  it("when Redis does not hold the script, then the call sends the source once and later calls run it by digest", async () => {
    await redis.script("FLUSH");
    expect(await redis.script("EXISTS", incrBy.sha)).toEqual([0]);
    expect(await incrBy.run(redis, [key], [2])).toBe(2);
    expect(await redis.script("EXISTS", incrBy.sha)).toEqual([1]);
    expect(await redis.evalsha(incrBy.sha, 1, key, 3)).toBe(5);
    expect(await incrBy.run(redis, [key], ["1"])).toBe(6);
  });

  it("when the script itself fails, then the error reaches the caller and is not retried", async () => {
    await redis.hset(`${key}:hash`, "f", "v");
    await expect(incrBy.run(redis, [`${key}:hash`], [1])).rejects.toThrow(/WRONGTYPE/);
  });
});
