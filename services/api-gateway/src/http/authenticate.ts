import { createHash, createSecretKey, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import type { Redis } from "ioredis";
import { z } from "zod";
import { ChangeSubject, ResolvedApiKey, RpcName, redisKeys, type Actor, type ApiKeyStateChange } from "@burnbox/contracts";
import { LuaScript } from "@burnbox/service-kit/data";
import { BroadcastCache, rpcRequest, type Invalidations, type NatsConnection } from "@burnbox/service-kit/messaging";
import { type AppError, errors, type Clock, type Logger } from "@burnbox/service-kit/runtime";
import { ipInList, parseCidrs } from "./client-ip";

/**
 * What drops a kept key: identity changed the key with that hash (its state is in Redis by then),
 * or removed every key of a deleted org or team (their entries in Redis refuse by then). The
 * copies are kept by hash and live a second, so a tenant's removal drops them all.
 */
const API_KEY_CHANGES: Invalidations = {
  [ChangeSubject.apiKeyState]: (c) => [(c.data as ApiKeyStateChange).hash],
  [ChangeSubject.apiKeysRemoved]: "all",
};

export const API_KEY_PATTERN = /^bb_[0-9a-f]{64}$/;

export type AuthOutcome = { kind: "anonymous" } | { kind: "authenticated"; actor: Actor } | { kind: "rejected"; error: AppError };

const AccessClaims = z.object({
  sub: z.string().uuid(),
  email: z.string(),
  is_system_admin: z.boolean(),
  sid: z.string(),
});
type AccessClaimsT = z.infer<typeof AccessClaims>;

/** How late a key's usage reaches Redis at most when neither another request nor its answer has taken it along (see recordUsage). */
export const USAGE_FLUSH_MS = 20;

/** Verified access tokens kept at most (all dropped at once beyond it; a token's own life is 15 minutes). */
const MAX_VERIFIED_TOKENS = 10_000;

export interface AuthenticatorDeps {
  jwtSecret: string;
  /**
   * A second secret whose tokens are admitted too (`auth.jwt_secret_previous`), while a rotation
   * rolls out: identity signs with one secret at a time, the gateway accepts both.
   */
  jwtSecretPrevious?: string;
  redis: Redis;
  redisPrefix: string;
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  apiKeyCacheTtlSeconds: number;
  now?: Clock;
}

export const hashApiKey = (raw: string) => createHash("sha256").update(raw).digest("hex");

/** Whether the session's revocation (KEYS[1]) and identity's "list complete" mark (KEYS[2]) exist. */
const REVOCATION_MARKS = new LuaScript("return {redis.call('EXISTS', KEYS[1]), redis.call('EXISTS', KEYS[2])}");

/**
 * Usage of one or more keys: KEYS[1..n] their usage hashes, KEYS[n+1] the set of keys with usage
 * to flush; per key four ARGV: count, time of last use, its IP, key id.
 */
const RECORD_USAGE = new LuaScript(`local n = #KEYS - 1
for i = 1, n do
  local a = (i - 1) * 4
  redis.call('HINCRBY', KEYS[i], 'count', ARGV[a + 1])
  redis.call('HSET', KEYS[i], 'last_used_at', ARGV[a + 2], 'last_used_ip', ARGV[a + 3])
  redis.call('SADD', KEYS[n + 1], ARGV[a + 4])
end
return n`);

const unauthenticated = (message: string) => ({ kind: "rejected", error: errors.unauthenticated(message) }) as const;

/** Turns the Authorization header into an actor: a `bb_` API key or a JWT access token. */
export class Authenticator {
  /** Identity's answers while Redis cannot give them (outage or restart), kept briefly per session. */
  private readonly statusCache = new Map<string, { revoked: boolean; until: number }>();
  /** Access tokens already verified: their claims and validity window (see verifiedClaims). */
  private readonly verified = new Map<string, { claims: AccessClaimsT; exp: number | undefined; nbf: number | undefined }>();
  /** Usage counted by the requests admitted since the last flush, per key, not yet sent to Redis. */
  private readonly pendingUsage = new Map<string, { count: number; ip: string; at: number }>();
  /** Sends `pendingUsage` when no other Redis command of the request path has taken it along. */
  private usageTimer: NodeJS.Timeout | null = null;
  /** Requests counted by `recordUsage` so far, and how many of them have been sent to Redis. */
  private usageRecorded = 0;
  private usageSent = 0;

  /**
   * The JWT secrets as key objects, made once: given a string, jsonwebtoken first tries to read it
   * as a PEM public key on every verify and only then as a secret, and that failed parse was the
   * largest cost of a JWT request (docs/performance.md). The current secret first, then the
   * previous one during a rotation: a token signed with either is admitted.
   */
  private readonly jwtKeys: KeyObject[];

  /**
   * Resolved keys kept in this process for at most a second, so a busy key costs no Redis read
   * per request. Identity's unit of work broadcasts every change of a key's state (after writing
   * it to Redis and before answering), and every gateway then drops its copy (`API_KEY_CHANGES`);
   * the one-second life bounds what a lost broadcast could leave: a revoked key loses access within
   * 1 s on every replica.
   */
  private readonly keys: BroadcastCache<ResolvedApiKey | null>;

  constructor(private readonly deps: AuthenticatorDeps) {
    this.jwtKeys = [deps.jwtSecret, ...(deps.jwtSecretPrevious ? [deps.jwtSecretPrevious] : [])].map((secret) =>
      createSecretKey(Buffer.from(secret, "utf8")),
    );
    this.keys = new BroadcastCache(deps.nc, deps.namespace, {
      invalidatedBy: API_KEY_CHANGES,
      maxAgeMs: 1000,
      maxEntries: 10_000,
      onlyWhileSubscribed: false,
      now: () => this.now(),
    });
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  async authenticate(authorization: string | undefined, clientIp: string): Promise<AuthOutcome> {
    if (!authorization) return { kind: "anonymous" };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return unauthenticated("invalid authorization header");
    const credential = match[1] as string;
    return credential.startsWith("bb_") ? this.apiKey(credential, clientIp) : this.accessToken(credential);
  }

  private async accessToken(token: string): Promise<AuthOutcome> {
    const claims = this.verifiedClaims(token);
    if (!claims) return unauthenticated("invalid or expired token");
    if (await this.sessionRevoked(claims.sid)) return unauthenticated("session revoked");
    return {
      kind: "authenticated",
      actor: { user_id: claims.sub, email: claims.email, is_system_admin: claims.is_system_admin, session_id: claims.sid, api_key: null },
    };
  }

  /**
   * The token's claims if its signature and claims are valid and it is live now. A token verified
   * once is kept (the exact string: same bytes, same signature) with its `exp` and `nbf`, which are
   * checked again on every use as jsonwebtoken checks them; revocation is checked per request by
   * the caller, never kept here.
   */
  private verifiedClaims(token: string): AccessClaimsT | null {
    const now = Math.floor(this.now() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if ((known.exp === undefined || now < known.exp) && (known.nbf === undefined || known.nbf <= now)) return known.claims;
      this.verified.delete(token);
    }
    let decoded: string | jwt.JwtPayload | undefined;
    for (const key of this.jwtKeys) {
      try {
        decoded = jwt.verify(token, key, { algorithms: ["HS256"], clockTimestamp: now });
        break;
      } catch {
        // not this secret's (or not valid now): the next secret, if any
      }
    }
    if (decoded === undefined) return null;
    const parsed = AccessClaims.safeParse(decoded);
    if (!parsed.success) return null;
    const claims: AccessClaimsT = parsed.data;
    if (typeof decoded === "string") return null; // AccessClaims refuses a string payload already
    if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
    this.verified.set(token, { claims, exp: decoded.exp, nbf: decoded.nbf });
    return claims;
  }

  /**
   * Redis holds the revocations of the last access-token lifetime, and a marker that identity
   * writes once they are all there. Without the marker (Redis restarted empty and not yet
   * re-seeded) or without Redis, identity answers from Postgres; without identity either, the
   * request is refused (503): a revoked token is never let through for want of an answer.
   */
  private async sessionRevoked(sid: string): Promise<boolean> {
    const { redis, redisPrefix } = this.deps;
    try {
      // both marks in one command (auto-pipelined with the rest of this turn's Redis work)
      const replies = (await REVOCATION_MARKS.run(redis, [
        redisKeys.revokedSession(redisPrefix, sid),
        redisKeys.revocationsSeeded(redisPrefix),
      ])) as [number, number];
      const [revoked, seeded] = replies.map(Number);
      if (revoked === 1) {
        this.statusCache.set(sid, { revoked: true, until: this.now() + 15 * 60_000 }); // still refused if Redis goes next
        return true;
      }
      if (revoked === 0 && seeded === 1) return false;
      this.deps.logger.debug({ revoked, seeded }, "revocation list incomplete or unreadable; asking identity");
    } catch (err) {
      this.deps.logger.warn({ err: { message: (err as Error).message } }, "session revocation list unavailable in Redis; asking identity");
    }
    return this.askIdentity(sid);
  }

  private async askIdentity(sid: string): Promise<boolean> {
    const now = this.now();
    const known = this.statusCache.get(sid);
    if (known && known.until > now) return known.revoked;
    let revoked: boolean;
    try {
      revoked = (await rpcRequest(this.deps.nc, this.deps.namespace, RpcName.sessionStatus, { session_id: sid })).revoked;
    } catch (err) {
      this.deps.logger.error({ err }, "session status unavailable from Redis and identity; refusing");
      throw errors.unavailable("authentication temporarily unavailable");
    }
    if (this.statusCache.size > 10_000) this.statusCache.clear();
    // a revoked session stays revoked; a live one is asked again after half a second (refused within 1 s)
    this.statusCache.set(sid, { revoked, until: revoked ? now + 15 * 60_000 : now + 500 });
    return revoked;
  }

  private async apiKey(raw: string, clientIp: string): Promise<AuthOutcome> {
    if (!API_KEY_PATTERN.test(raw)) return unauthenticated("invalid API key");
    const hash = hashApiKey(raw);
    const key = await this.resolveKey(hash);
    if (!key) return unauthenticated("invalid API key");
    if (key.expires_at && Date.parse(key.expires_at) <= this.now()) return unauthenticated("API key expired");
    if (key.revoked_at) return unauthenticated("API key revoked");
    if (!key.is_active) return unauthenticated("API key disabled");
    if (key.allowed_ips.length > 0 && !ipInList(clientIp, safeCidrs(key.allowed_ips))) {
      return { kind: "rejected", error: errors.forbidden("IP not allowed for this API key") };
    }
    return {
      kind: "authenticated",
      // A key acts as its creator but never with system-admin rights (spec 5.2.3).
      actor: {
        user_id: key.creator.user_id,
        email: key.creator.email,
        is_system_admin: false,
        session_id: null,
        api_key: { id: key.id, team_id: key.team_id, scopes: key.scopes },
      },
    };
  }

  /** This process's copy (at most 1 s old), else Redis and identity; the answer is kept for a second. */
  private resolveKey(hash: string): Promise<ResolvedApiKey | null> {
    return this.keys.get(hash, () => this.lookUpKey(hash));
  }

  /** Redis first (identity rewrites the entry on rotate/revoke/patch), then identity over NATS. */
  private async lookUpKey(hash: string): Promise<ResolvedApiKey | null> {
    const cacheKey = redisKeys.apiKey(this.deps.redisPrefix, hash);
    try {
      const cached = await this.deps.redis.get(cacheKey);
      if (cached !== null) {
        const parsed = ResolvedApiKey.nullable().safeParse(JSON.parse(cached));
        if (parsed.success) return parsed.data;
      }
    } catch (err) {
      this.deps.logger.warn({ err: { message: (err as Error).message } }, "api key cache unavailable");
    }
    let key: ResolvedApiKey | null;
    try {
      key = (await rpcRequest(this.deps.nc, this.deps.namespace, "identity.resolve_api_key", { key_hash: hash })).key;
    } catch (err) {
      this.deps.logger.error({ err }, "api key resolution failed");
      throw errors.unavailable("authentication temporarily unavailable");
    }
    try {
      // NX: identity writes the fresh state on every change; a lookup that raced with it must not put a stale one back.
      await this.deps.redis.set(cacheKey, JSON.stringify(key), "EX", this.deps.apiKeyCacheTtlSeconds, "NX");
    } catch {
      // cache is best-effort
    }
    return key;
  }

  /**
   * Counts an accepted request for the key's usage figures (flushed to Postgres by identity). The
   * counts are summed per key in this process and sent as one script (count, last use and dirty
   * mark, atomic as a MULTI was) with the next Redis command of the request path (`flushUsage`,
   * which admission calls just before its rate-limit command): under load they share that
   * command's write instead of costing one of their own. The forwarder calls `usageSentBy` with
   * the returned mark before the request's answer goes out, so usage is sent before the client can
   * read it, as when each turn sent its own; a timer sends it within `USAGE_FLUSH_MS` otherwise.
   */
  recordUsage(keyId: string, clientIp: string): number {
    const seen = this.pendingUsage.get(keyId);
    if (seen) {
      seen.count++;
      seen.ip = clientIp;
      seen.at = this.now();
    } else {
      this.pendingUsage.set(keyId, { count: 1, ip: clientIp, at: this.now() });
    }
    if (!this.usageTimer) {
      this.usageTimer = setTimeout(() => void this.flushUsage(), USAGE_FLUSH_MS);
      this.usageTimer.unref();
    }
    return ++this.usageRecorded;
  }

  /** Sends the usage counted so far unless the request `recordUsage` marked `mark` went out already. */
  usageSentBy(mark: number): void {
    if (this.usageSent < mark) void this.flushUsage();
  }

  /** Sends the usage counted so far (a no-op when there is none); resolves once Redis has it, or failed to take it. */
  flushUsage(): Promise<void> {
    if (this.usageTimer) {
      clearTimeout(this.usageTimer);
      this.usageTimer = null;
    }
    this.usageSent = this.usageRecorded;
    if (this.pendingUsage.size === 0) return Promise.resolve();
    const { redis, redisPrefix } = this.deps;
    const keys: string[] = [];
    const args: string[] = [];
    for (const [keyId, u] of this.pendingUsage) {
      keys.push(redisKeys.apiKeyUsage(redisPrefix, keyId));
      args.push(String(u.count), new Date(u.at).toISOString(), u.ip, keyId);
    }
    this.pendingUsage.clear();
    return RECORD_USAGE.run(redis, [...keys, redisKeys.apiKeyUsageDirty(redisPrefix)], args).then(
      () => undefined,
      (err: unknown) => this.deps.logger.warn({ err }, "api key usage not recorded"),
    );
  }
}

function safeCidrs(entries: string[]) {
  try {
    return parseCidrs(entries);
  } catch {
    return [];
  }
}
