import { redisKeys } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

/**
 * Moves the usage the gateway counts in Redis (one hash per key, and a set of keys with
 * pending usage) into Postgres in batches: one UPDATE per key per flush, however many requests
 * it served. Each key's hash is read and cleared atomically (MULTI), so replicas never flush the
 * same increment twice; if the database write fails, the counts go back into Redis.
 */
export async function flushApiKeyUsage(deps: IdentityDeps, batch = 500): Promise<number> {
  const redis = deps.redis;
  if (!redis) return 0;
  const prefix = deps.config.redis.key_prefix;
  const ids = await redis.spop(redisKeys.apiKeyUsageDirty(prefix), batch);
  let flushed = 0;
  for (const id of ids) {
    const key = redisKeys.apiKeyUsage(prefix, id);
    const res = await redis.multi().hgetall(key).del(key).exec();
    const h = (res?.[0]?.[1] ?? {}) as Record<string, string>;
    const count = Number(h.count ?? 0);
    if (!count && !h.last_used_at) continue;
    try {
      await deps.data.repos.apiKeys.addUsage(id, {
        count,
        lastUsedAt: h.last_used_at ? new Date(h.last_used_at) : null,
        lastUsedIp: h.last_used_ip ?? null,
      });
      flushed++;
    } catch (err) {
      deps.logger.warn({ err, api_key_id: id }, "usage flush failed; putting the counts back");
      const back = redis.multi().hincrby(key, "count", count);
      if (h.last_used_at) back.hsetnx(key, "last_used_at", h.last_used_at).hsetnx(key, "last_used_ip", h.last_used_ip ?? "");
      await back.sadd(redisKeys.apiKeyUsageDirty(prefix), id).exec();
    }
  }
  return flushed;
}
