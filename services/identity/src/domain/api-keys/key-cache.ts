import { ChangeSubject, redisKeys, type ApiKey, type ApiKeyStateChange } from "@burnbox/contracts";
import type { Change } from "@burnbox/service-kit/messaging";
import type { IdentityRepos } from "../../data/repositories";
import type { IdentityDeps } from "../deps";
import { addPendingUsage, type PendingUsage } from "./usage";

export const API_KEY_CACHE_TTL_SECONDS = 60;

/**
 * Identity's unit of work's `refreshShared`: after a commit that changed keys' states (recorded by
 * the repositories as `api_keys.state_changed`, by hash), writes the gateways' Redis entry of each
 * hash with its committed state (or null for a secret that no longer resolves), before the change
 * is broadcast (the gateways then drop their in-memory copies) and answered. Overwriting rather
 * than deleting closes the race with a gateway that looked the key up just before: the gateway
 * only ever sets the entry when it is absent (SET NX), so it cannot put a stale state back.
 */
export function keyStateRefresher(
  redis: IdentityDeps["redis"],
  prefix: string,
  repos: Pick<IdentityRepos, "apiKeys">,
): (changes: readonly Change[]) => Promise<void> {
  return async (changes) => {
    const hashes = [...new Set(changes.filter((c) => c.type === ChangeSubject.apiKeyState).map((c) => (c.data as ApiKeyStateChange).hash))];
    if (!redis || hashes.length === 0) return;
    const states = await Promise.all(hashes.map((hash) => repos.apiKeys.locateByHash(hash)));
    const multi = redis.multi();
    hashes.forEach((hash, i) =>
      multi.set(redisKeys.apiKey(prefix, hash), JSON.stringify(states[i] ?? null), "EX", API_KEY_CACHE_TTL_SECONDS),
    );
    const results = await multi.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw new Error("could not update the API key cache");
  };
}

/**
 * Writes "no such key" into the gateways' Redis entries of removed keys, inside the removal's
 * transaction (before it commits): whichever of two concurrent removals deletes a key, the entry
 * is already refused when the other one finds nothing left and answers. A failure throws (the
 * batch rolls back and is retried). The commit's `keyStateRefresher` writes the same again.
 */
export async function tombstoneKeys(redis: IdentityDeps["redis"], prefix: string, hashes: readonly string[]): Promise<void> {
  if (!redis || hashes.length === 0) return;
  const multi = redis.multi();
  for (const hash of hashes) multi.set(redisKeys.apiKey(prefix, hash), JSON.stringify(null), "EX", API_KEY_CACHE_TTL_SECONDS);
  const results = await multi.exec();
  if (!results || results.some(([err]) => err)) throw new Error("could not mark removed API keys in the cache");
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
