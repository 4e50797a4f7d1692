import { randomBytes, randomUUID } from "node:crypto";
import ipaddr from "ipaddr.js";
import {
  API_KEY_PREFIX_LENGTH,
  pageWindow,
  parseDurationMs,
  toPage,
  type Actor,
  type ApiKey,
  type CreateApiKeyBody,
  type Page,
  type PaginationQuery,
  type Permission,
  type UpdateApiKeyBody,
} from "@burnbox/contracts";
import { RpcError, auditEvent, authorize, errors, outboxRow, rpcRequest } from "@burnbox/service-kit";
import type { Prisma, Tx } from "../data/prisma";
import { pendingUsage, publishKeyState, resolvedView, type PendingUsage } from "./apikey-cache";
import type { IdentityDeps } from "./deps";
import { sha256 } from "./tokens";

export interface TeamRef {
  orgId: string;
  teamId: string;
}

/** `bb_` + 64 lowercase hex from 32 random bytes; only its SHA-256 and display prefix are kept. */
export function newRawKey(): { raw: string; hash: string; prefix: string } {
  const raw = `bb_${randomBytes(32).toString("hex")}`;
  return { raw, hash: sha256(raw), prefix: raw.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** Each entry must be an IP address or a CIDR range, v4 or v6; returns them normalised. */
export function normalizeAllowedIps(entries: string[]): string[] {
  return entries.map((entry) => {
    const e = entry.trim().toLowerCase();
    try {
      if (e.includes("/")) {
        const [addr, bits] = ipaddr.parseCIDR(e);
        return `${addr.toString()}/${bits}`;
      }
      return ipaddr.parse(e).toString();
    } catch {
      throw errors.validation(`allowed_ips: "${entry}" is not an IP address or CIDR range`, [
        { path: "allowed_ips", message: "invalid IP or CIDR" },
      ]);
    }
  });
}

type KeyRow = Prisma.ApiKeyGetPayload<object>;

function keyView(k: KeyRow, pending?: PendingUsage): ApiKey {
  const flushedAt = k.lastUsedAt?.toISOString() ?? null;
  const newer = pending?.last_used_at && (!flushedAt || pending.last_used_at > flushedAt);
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
    request_count: Number(k.requestCount) + (pending?.count ?? 0),
    last_used_at: newer ? pending.last_used_at : flushedAt,
    last_used_ip: newer ? pending.last_used_ip : k.lastUsedIp,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString(),
  };
}

const ns = (deps: IdentityDeps) => deps.config.nats.namespace;

async function requireTeamPermission(deps: IdentityDeps, actor: Actor, team: TeamRef, permission: Permission): Promise<void> {
  await authorize(deps.nc, ns(deps), { actor, org_id: team.orgId, team_id: team.teamId, permission }, "team");
}

/** A key may not carry a scope its creator does not hold in that team. */
async function requireGrantable(deps: IdentityDeps, actor: Actor, team: TeamRef, scopes: string[]): Promise<void> {
  const replies = await Promise.all(
    scopes.map((permission) =>
      rpcRequest(deps.nc, ns(deps), "tenancy.authorize", { actor, org_id: team.orgId, team_id: team.teamId, permission }).catch(
        (err: unknown) => {
          if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
          throw err;
        },
      ),
    ),
  );
  const missing = scopes.filter((_, i) => !replies[i]?.allowed);
  if (missing.length > 0) throw errors.forbidden(`cannot grant scopes you do not hold in this team: ${missing.join(", ")}`);
}

async function loadKey(deps: IdentityDeps, team: TeamRef, keyId: string): Promise<KeyRow> {
  const key = await deps.db.apiKey.findFirst({ where: { id: keyId, teamId: team.teamId, orgId: team.orgId } });
  if (!key) throw errors.notFound("API key");
  return key;
}

async function audit(
  deps: IdentityDeps,
  tx: Tx,
  actor: Actor,
  team: TeamRef,
  action: string,
  targetId: string | null,
  ip: string,
  metadata: Record<string, unknown> = {},
) {
  const event = auditEvent({
    action,
    actor,
    org_id: team.orgId,
    team_id: team.teamId,
    target_type: "api_key",
    target_id: targetId,
    ip,
    metadata,
  });
  await tx.outboxEvent.create({ data: outboxRow(ns(deps), event) });
}

async function stateOf(deps: IdentityDeps, tx: Tx, id: string) {
  return resolvedView(await tx.apiKey.findUniqueOrThrow({ where: { id }, include: { creator: { select: { id: true, email: true } } } }));
}

export async function createApiKey(
  deps: IdentityDeps,
  actor: Actor,
  team: TeamRef,
  body: CreateApiKeyBody,
  ip: string,
): Promise<ApiKey & { raw_key: string }> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.manage");
  const allowedIps = normalizeAllowedIps(body.allowed_ips);
  await requireGrantable(deps, actor, team, body.scopes);
  const expiresAt = body.expires_in ? new Date(deps.now() + parseDurationMs(body.expires_in)) : null;
  if (expiresAt && expiresAt.getTime() <= deps.now()) throw errors.validation("expires_in must be positive");
  const { raw, hash, prefix } = newRawKey();
  const id = randomUUID();
  const row = await deps.db.$transaction(async (tx) => {
    const k = await tx.apiKey.create({
      data: {
        id,
        orgId: team.orgId,
        teamId: team.teamId,
        createdBy: actor.user_id,
        name: body.name,
        keyPrefix: prefix,
        keyHash: hash,
        scopes: body.scopes,
        allowedIps,
        expiresAt,
      },
    });
    await audit(deps, tx, actor, team, "apikey.created", id, ip, { name: body.name, scopes: body.scopes, key_prefix: prefix });
    return k;
  });
  deps.relay.kick();
  return { ...keyView(row), raw_key: raw };
}

export async function listApiKeys(
  deps: IdentityDeps,
  actor: Actor,
  team: TeamRef,
  q: PaginationQuery & { include_revoked: boolean },
): Promise<Page<ApiKey>> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.view");
  const where: Prisma.ApiKeyWhereInput = { teamId: team.teamId, orgId: team.orgId, ...(q.include_revoked ? {} : { revokedAt: null }) };
  const [rows, total] = await Promise.all([
    deps.db.apiKey.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.apiKey.count({ where }),
  ]);
  const pending = await pendingUsage(
    deps,
    rows.map((r) => r.id),
  );
  return toPage(
    rows.map((r) => keyView(r, pending.get(r.id))),
    total,
    q,
  );
}

export async function getApiKey(deps: IdentityDeps, actor: Actor, team: TeamRef, keyId: string): Promise<ApiKey> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.view");
  const key = await loadKey(deps, team, keyId);
  return keyView(key, (await pendingUsage(deps, [key.id])).get(key.id));
}

export async function updateApiKey(
  deps: IdentityDeps,
  actor: Actor,
  team: TeamRef,
  keyId: string,
  body: UpdateApiKeyBody,
  ip: string,
): Promise<ApiKey> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.manage");
  const key = await loadKey(deps, team, keyId);
  if (key.revokedAt) throw errors.conflict("API key is revoked");
  const allowedIps = body.allowed_ips ? normalizeAllowedIps(body.allowed_ips) : undefined;
  if (body.scopes) await requireGrantable(deps, actor, team, body.scopes);
  const { row, state } = await deps.db.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id: key.id },
      data: {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
        ...(body.is_active !== undefined ? { isActive: body.is_active } : {}),
        ...(allowedIps !== undefined ? { allowedIps } : {}),
      },
    });
    await audit(deps, tx, actor, team, "apikey.updated", key.id, ip, {
      fields: Object.keys(body).filter((k) => body[k as keyof UpdateApiKeyBody] !== undefined),
    });
    return { row: updated, state: await stateOf(deps, tx, key.id) };
  });
  deps.relay.kick();
  await publishKeyState(deps, [{ hash: key.keyHash, state }]);
  return keyView(row, (await pendingUsage(deps, [key.id])).get(key.id));
}

/** Soft revoke: stamped and kept for audit. Revoking an already revoked key changes nothing. */
export async function revokeApiKey(deps: IdentityDeps, actor: Actor, team: TeamRef, keyId: string, ip: string): Promise<void> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.manage");
  const key = await loadKey(deps, team, keyId);
  if (key.revokedAt) return;
  const state = await deps.db.$transaction(async (tx) => {
    await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date(deps.now()), revokedBy: actor.user_id } });
    await audit(deps, tx, actor, team, "apikey.revoked", key.id, ip);
    return stateOf(deps, tx, key.id);
  });
  deps.relay.kick();
  await publishKeyState(deps, [{ hash: key.keyHash, state }]);
}

/** A new secret for the same key; the old one is refused on the very next request. */
export async function rotateApiKey(
  deps: IdentityDeps,
  actor: Actor,
  team: TeamRef,
  keyId: string,
  ip: string,
): Promise<ApiKey & { raw_key: string }> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.manage");
  const key = await loadKey(deps, team, keyId);
  if (key.revokedAt) throw errors.conflict("API key is revoked");
  const { raw, hash, prefix } = newRawKey();
  const { row, state } = await deps.db.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id: key.id }, data: { keyHash: hash, keyPrefix: prefix } });
    await audit(deps, tx, actor, team, "apikey.rotated", key.id, ip, { key_prefix: prefix });
    return { row: updated, state: await stateOf(deps, tx, key.id) };
  });
  deps.relay.kick();
  await publishKeyState(deps, [
    { hash: key.keyHash, state: null },
    { hash, state },
  ]);
  return { ...keyView(row, (await pendingUsage(deps, [key.id])).get(key.id)), raw_key: raw };
}

/** Revokes the team's listed keys; ids of other teams, unknown or already revoked come back in `skipped`. */
export async function bulkRevokeApiKeys(
  deps: IdentityDeps,
  actor: Actor,
  team: TeamRef,
  keyIds: string[],
  ip: string,
): Promise<{ revoked: number; skipped: string[] }> {
  await requireTeamPermission(deps, actor, team, "team.apikeys.manage");
  const ids = [...new Set(keyIds)];
  const { revoked, states } = await deps.db.$transaction(async (tx) => {
    const candidates = await tx.apiKey.findMany({
      where: { id: { in: ids }, teamId: team.teamId, orgId: team.orgId, revokedAt: null },
      select: { id: true, keyHash: true },
    });
    if (candidates.length > 0) {
      await tx.apiKey.updateMany({
        where: { id: { in: candidates.map((c) => c.id) } },
        data: { revokedAt: new Date(deps.now()), revokedBy: actor.user_id },
      });
      await audit(deps, tx, actor, team, "apikey.bulk_revoked", null, ip, { key_ids: candidates.map((c) => c.id) });
    }
    const states = await Promise.all(candidates.map(async (c) => ({ hash: c.keyHash, state: await stateOf(deps, tx, c.id) })));
    return { revoked: candidates.map((c) => c.id), states };
  });
  deps.relay.kick();
  await publishKeyState(deps, states);
  return { revoked: revoked.length, skipped: ids.filter((id) => !revoked.includes(id)) };
}
