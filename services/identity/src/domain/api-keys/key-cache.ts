import { redisKeys, subjects, type ApiKey, type ResolvedApiKey } from "@burnbox/contracts";
import { broadcastNow } from "@burnbox/service-kit";
import type { IdentityDeps } from "../deps";
import { addPendingUsage, type PendingUsage } from "./usage";

export const API_KEY_CACHE_TTL_SECONDS = 60;

/**
 * Writes the gateway's cache entry for a key hash with its current state (or null for a secret
 * that no longer exists) before the change is answered. Overwriting rather than deleting closes
 * the race with a gateway that looked the key up just before: the gateway only ever sets the
 * entry when it is absent (SET NX), so it cannot put a stale state back.
 */
export async function publishKeyState(deps: IdentityDeps, entries: Array<{ hash: string; state: ResolvedApiKey | null }>): Promise<void> {
  if (!deps.redis || entries.length === 0) return;
  const prefix = deps.config.redis.key_prefix;
  const multi = deps.redis.multi();
  for (const e of entries) multi.set(redisKeys.apiKey(prefix, e.hash), JSON.stringify(e.state), "EX", API_KEY_CACHE_TTL_SECONDS);
  const results = await multi.exec();
  const failed = results?.find(([err]) => err);
  if (!results || failed) throw new Error("could not update the API key cache");
  // gateways also keep a key for up to a second in memory: tell every replica to drop those copies,
  // and wait until the server has the broadcast (it is then ahead of our answer on every gateway's connection)
  await broadcastNow(deps.nc, subjects(deps.config.nats.namespace).apiKeyChanged);
}

/** Usage the gateway has counted in Redis and the flush worker has not yet written to Postgres. */
async function pendingUsage(deps: IdentityDeps, ids: string[]): Promise<Map<string, PendingUsage>> {
  const out = new Map<string, PendingUsage>();
  if (!deps.redis || ids.length === 0) return out;
  const prefix = deps.config.redis.key_prefix;
  try {
    const multi = deps.redis.multi();
    for (const id of ids) multi.hgetall(redisKeys.apiKeyUsage(prefix, id));
    const results = (await multi.exec()) ?? [];
    ids.forEach((id, i) => {
      const h = (results[i]?.[1] ?? {}) as Record<string, string>;
      if (h.count || h.last_used_at) {
        out.set(id, { count: Number(h.count ?? 0), last_used_at: h.last_used_at ?? null, last_used_ip: h.last_used_ip ?? null });
      }
    });
  } catch (err) {
    deps.logger.warn({ err }, "pending API key usage unavailable; showing flushed figures");
  }
  return out;
}

/** The keys with the usage counted since the last flush added to their stored figures. */
export async function withPendingUsage(deps: IdentityDeps, keys: ApiKey[]): Promise<ApiKey[]> {
  const pending = await pendingUsage(
    deps,
    keys.map((k) => k.id),
  );
  return keys.map((k) => addPendingUsage(k, pending.get(k.id)));
}
