import type { Logger } from "@burnbox/service-kit";
import { redisKeys } from "@burnbox/contracts";
import { publishKeyState } from "../domain/apikey-cache";
import type { IdentityDeps } from "../domain/deps";

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
      await deps.db.$executeRaw`
        UPDATE api_keys SET request_count = request_count + ${count},
          last_used_at = GREATEST(last_used_at, ${h.last_used_at ? new Date(h.last_used_at) : null}::timestamptz),
          last_used_ip = CASE WHEN last_used_at IS NULL OR last_used_at <= ${h.last_used_at ? new Date(h.last_used_at) : null}::timestamptz
                              THEN COALESCE(${h.last_used_ip ?? null}, last_used_ip) ELSE last_used_ip END
        WHERE id = ${id}::uuid`;
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

/** Hard-deletes expired keys (spec 3.1); revoked and disabled keys are kept for audit. */
export async function deleteExpiredApiKeys(deps: IdentityDeps): Promise<number> {
  const deleted = await deps.db.$queryRaw<Array<{ key_hash: string }>>`
    DELETE FROM api_keys WHERE expires_at IS NOT NULL AND expires_at <= ${new Date(deps.now())} RETURNING key_hash`;
  await publishKeyState(
    deps,
    deleted.map((d) => ({ hash: d.key_hash, state: null })),
  ).catch((err: unknown) => deps.logger.warn({ err }, "could not clear deleted keys from the cache"));
  return deleted.length;
}

export function startApiKeyWorkers(deps: IdentityDeps, logger: Logger, opts: { flushMs: number; cleanupMs: number }) {
  let flushing: Promise<unknown> | null = null;
  const flush = () => {
    flushing ??= flushApiKeyUsage(deps)
      .catch((err: unknown) => logger.warn({ err }, "api key usage flush failed"))
      .finally(() => (flushing = null));
  };
  const cleanup = () => {
    deleteExpiredApiKeys(deps)
      .then((n) => n > 0 && logger.info({ deleted: n }, "expired API keys deleted"))
      .catch((err: unknown) => logger.warn({ err }, "expired API key cleanup failed"));
  };
  const timers = [setInterval(flush, opts.flushMs), setInterval(cleanup, opts.cleanupMs)];
  return {
    stop: async () => {
      timers.forEach(clearInterval);
      await flushing;
      await flushApiKeyUsage(deps).catch(() => 0);
    },
  };
}
