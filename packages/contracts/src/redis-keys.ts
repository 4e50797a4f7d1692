/**
 * Redis keys more than one service reads or writes: identity writes them, the gateway reads
 * (or, for usage, the other way round). One definition, so the two can never drift apart.
 * `prefix` is the installation's `redis.key_prefix`.
 */
export const redisKeys = {
  /** Present while a revoked session's access tokens could still be alive: the gateway refuses them. */
  revokedSession: (prefix: string, sid: string) => `${prefix}session:revoked:${sid}`,
  /**
   * Written by identity once the revocations of the last access-token lifetime are in Redis. Its
   * absence means Redis lost them (a restart without persistence): the gateway then asks identity.
   */
  revocationsSeeded: (prefix: string) => `${prefix}session:revoked:seeded`,
  /** A single-use WebSocket ticket (the actor it was taken with): realtime-gateway issues and redeems it, identity redeems it to link SSO. */
  wsTicket: (prefix: string, ticket: string) => `${prefix}ws:ticket:${ticket}`,
  /** The resolved state of a `bb_` key by the SHA-256 of the key (JSON, or "null" for no such key). */
  apiKey: (prefix: string, hash: string) => `${prefix}apikey:${hash}`,
  /** Usage the gateway counted for one key and identity has not yet flushed (hash: count, last_used_at, last_used_ip). */
  apiKeyUsage: (prefix: string, id: string) => `${prefix}apikey:usage:${id}`,
  /** Ids of keys with pending usage. */
  apiKeyUsageDirty: (prefix: string) => `${prefix}apikey:usage:dirty`,
} as const;
