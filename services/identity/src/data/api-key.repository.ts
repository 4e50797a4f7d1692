import { ChangeSubject, type ApiKey, type ApiKeyStateChange, type ResolvedApiKey } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import type { Prisma } from "../generated/prisma";
import type { Client } from "./prisma";

type KeyRow = Prisma.ApiKeyGetPayload<object>;
const withCreator = { creator: { select: { id: true, email: true } } } as const;
type KeyWithCreator = Prisma.ApiKeyGetPayload<{ include: typeof withCreator }>;

/** The key as stored: usage figures are those flushed to Postgres so far. */
function toApiKey(k: KeyRow): ApiKey {
  return {
    id: k.id,
    team_id: k.teamId,
    created_by: k.createdBy,
    name: k.name,
    key_prefix: k.keyPrefix,
    scopes: k.scopes,
    is_active: k.isActive,
    allowed_ips: k.allowedIps,
    expires_at: k.expiresAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    revoked_by: k.revokedBy,
    request_count: Number(k.requestCount),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    last_used_ip: k.lastUsedIp,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString(),
  };
}

/** What the gateway needs to decide on a request made with the key. */
function toResolved(key: KeyWithCreator): ResolvedApiKey {
  return {
    id: key.id,
    team_id: key.teamId,
    scopes: key.scopes,
    is_active: key.isActive,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    allowed_ips: key.allowedIps,
    creator: { user_id: key.creator.id, email: key.creator.email },
  };
}

/** A stored key with the hash of its secret (never shown; the gateway's cache is keyed by it). */
export interface StoredApiKey {
  key: ApiKey;
  hash: string;
}

export interface NewApiKey {
  id: string;
  createdBy: string;
  name: string;
  keyPrefix: string;
  keyHash: string;
  scopes: string[];
  allowedIps: string[];
  expiresAt: Date | null;
}

export interface ApiKeyChanges {
  name?: string;
  scopes?: string[];
  isActive?: boolean;
  allowedIps?: string[];
}

const inTeam = (scope: TeamScope) => ({ orgId: scope.orgId, teamId: scope.teamId });

/**
 * Team API keys: every method on a team's keys takes its `TeamScope`. The exceptions are the
 * gateway's lookup by secret (`locateByHash`), the keys of a user being deleted, and the
 * platform-wide maintenance of the workers (usage flush, expiry).
 */
export class ApiKeyRepository {
  /**
   * `changes`: inside `write()`, where every change of a key's state (what the gateway resolves) is
   * recorded by hash, for identity's Redis key states and the gateways' copies (see `keyStateChanged`).
   */
  constructor(
    private readonly db: Client,
    private readonly changes?: ChangeLog,
  ) {}

  /** Records that the keys with these hashes changed state (or are gone). */
  private changed(hashes: readonly string[]): void {
    for (const hash of hashes) {
      const data: ApiKeyStateChange = { hash };
      this.changes?.record({ type: ChangeSubject.apiKeyState, org_id: null, team_id: null, data });
    }
  }

  /** The hashes of the listed keys of a scope (before a change of their state). */
  private async hashesOf(where: Prisma.ApiKeyWhereInput): Promise<string[]> {
    if (!this.changes) return [];
    const rows = await this.db.apiKey.findMany({ where, select: { keyHash: true } });
    return rows.map((r) => r.keyHash);
  }

  async create(scope: TeamScope, fields: NewApiKey): Promise<ApiKey> {
    return toApiKey(await this.db.apiKey.create({ data: { ...fields, ...inTeam(scope) } }));
  }

  async get(scope: TeamScope, keyId: string): Promise<StoredApiKey | null> {
    const row = await this.db.apiKey.findFirst({ where: { id: keyId, ...inTeam(scope) } });
    return row ? { key: toApiKey(row), hash: row.keyHash } : null;
  }

  /** One page of the team's keys, newest first; revoked ones only when asked for. */
  async page(scope: TeamScope, filter: { includeRevoked: boolean }, window: { skip: number; take: number }): Promise<ApiKey[]> {
    const rows = await this.db.apiKey.findMany({
      where: { ...inTeam(scope), ...(filter.includeRevoked ? {} : { revokedAt: null }) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toApiKey);
  }

  count(scope: TeamScope, filter: { includeRevoked: boolean }): Promise<number> {
    return this.db.apiKey.count({ where: { ...inTeam(scope), ...(filter.includeRevoked ? {} : { revokedAt: null }) } });
  }

  async update(scope: TeamScope, keyId: string, changes: ApiKeyChanges): Promise<ApiKey> {
    const row = await this.db.apiKey.update({ where: { id: keyId, ...inTeam(scope) }, data: changes });
    this.changed([row.keyHash]);
    return toApiKey(row);
  }

  /** A new secret: the old hash stops resolving, the new one resolves. */
  async rotate(scope: TeamScope, keyId: string, secret: { keyHash: string; keyPrefix: string }): Promise<ApiKey> {
    const old = await this.hashesOf({ id: keyId, ...inTeam(scope) });
    const row = await this.db.apiKey.update({ where: { id: keyId, ...inTeam(scope) }, data: secret });
    this.changed([...old, row.keyHash]);
    return toApiKey(row);
  }

  async revoke(scope: TeamScope, keyIds: string[], by: string, at: Date): Promise<void> {
    const where = { id: { in: keyIds }, ...inTeam(scope) };
    const hashes = await this.hashesOf(where);
    await this.db.apiKey.updateMany({ where, data: { revokedAt: at, revokedBy: by } });
    this.changed(hashes);
  }

  /** The listed keys of the team that are not revoked yet. */
  async unrevoked(scope: TeamScope, keyIds: string[]): Promise<Array<{ id: string; hash: string }>> {
    const rows = await this.db.apiKey.findMany({
      where: { id: { in: keyIds }, ...inTeam(scope), revokedAt: null },
      select: { id: true, keyHash: true },
    });
    return rows.map((r) => ({ id: r.id, hash: r.keyHash }));
  }

  /** The key as the gateway resolves (and caches) a presented secret, whose team is not known before. */
  async locateByHash(keyHash: string): Promise<ResolvedApiKey | null> {
    const row = await this.db.apiKey.findUnique({ where: { keyHash }, include: withCreator });
    return row ? toResolved(row) : null;
  }

  /**
   * Adds usage counted by the gateway: the count is added, and the last use (time and IP) moves
   * only forward, so flushes arriving out of order never put an older use back.
   */
  async addUsage(keyId: string, usage: { count: number; lastUsedAt: Date | null; lastUsedIp: string | null }): Promise<void> {
    await this.db.$executeRaw`
      UPDATE api_keys SET request_count = request_count + ${usage.count},
        last_used_at = GREATEST(last_used_at, ${usage.lastUsedAt}::timestamptz),
        last_used_ip = CASE WHEN last_used_at IS NULL OR last_used_at <= ${usage.lastUsedAt}::timestamptz
                            THEN COALESCE(${usage.lastUsedIp}, last_used_ip) ELSE last_used_ip END
      WHERE id = ${keyId}::uuid`;
  }

  /** Hard-deletes keys expired at `now` in every team; returns their hashes. */
  async deleteExpired(now: Date): Promise<string[]> {
    const deleted = await this.db.$queryRaw<Array<{ key_hash: string }>>`
      DELETE FROM api_keys WHERE expires_at IS NOT NULL AND expires_at <= ${now} RETURNING key_hash`;
    this.changed(deleted.map((d) => d.key_hash));
    return deleted.map((d) => d.key_hash);
  }

  /**
   * Deletes up to `limit` keys of a removed org (or of one of its teams) and returns their hashes
   * (the gateway's cache entries to clear). A team is matched by its id alone (ids are unique), so
   * a removal processed before the team's move still finds it.
   */
  async removeBatchOf(scope: OrgScope | TeamScope, limit: number): Promise<string[]> {
    const deleted =
      "teamId" in scope
        ? await this.db.$queryRaw<Array<{ key_hash: string }>>`
            DELETE FROM api_keys WHERE id IN (SELECT id FROM api_keys WHERE team_id = ${scope.teamId}::uuid LIMIT ${limit}) RETURNING key_hash`
        : await this.db.$queryRaw<Array<{ key_hash: string }>>`
            DELETE FROM api_keys WHERE id IN (SELECT id FROM api_keys WHERE org_id = ${scope.orgId}::uuid LIMIT ${limit}) RETURNING key_hash`;
    this.changed(deleted.map((d) => d.key_hash));
    return deleted.map((d) => d.key_hash);
  }

  /** Re-files a team's keys under the org it was transferred to; returns how many. */
  async moveTeam(scope: TeamScope, toOrgId: string): Promise<number> {
    const hashes = await this.hashesOf({ teamId: scope.teamId });
    const { count } = await this.db.apiKey.updateMany({ where: { teamId: scope.teamId }, data: { orgId: toOrgId } });
    this.changed(hashes); // the resolved key names its org
    return count;
  }
}
