import type { ApiKey } from "@burnbox/contracts";

/** Usage the gateway has counted in Redis that the flush worker has not yet written to Postgres. */
export interface PendingUsage {
  count: number;
  last_used_at: string | null;
  last_used_ip: string | null;
}

/** The key's figures as a client should see them: flushed plus pending count, and the latest use of the two. */
export function addPendingUsage(key: ApiKey, pending: PendingUsage | undefined): ApiKey {
  if (!pending) return key;
  const flushedAt = key.last_used_at;
  const newer = pending.last_used_at !== null && (!flushedAt || pending.last_used_at > flushedAt);
  return {
    ...key,
    request_count: key.request_count + pending.count,
    last_used_at: newer ? pending.last_used_at : flushedAt,
    last_used_ip: newer ? pending.last_used_ip : key.last_used_ip,
  };
}
