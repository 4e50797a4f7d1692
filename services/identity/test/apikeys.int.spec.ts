import { createHash, randomUUID } from "node:crypto";
import { RpcName, TEAM_PERMISSIONS, redisKeys, type Actor } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import type { TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { IdentityConfig } from "../src/config";
import { recordAudit, registerUser, startIdentity } from "./support";

interface Key {
  id: string;
  raw_key?: string;
  key_prefix: string;
  scopes: string[];
  is_active: boolean;
  allowed_ips: string[];
  revoked_at: string | null;
  revoked_by: string | null;
  request_count: number;
  last_used_at: string | null;
  last_used_ip: string | null;
  expires_at: string | null;
}
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("team API keys on real Postgres, Redis and NATS", () => {
  let t: TestService<IdentityConfig, RunningService>;
  let config: IdentityConfig;
  let infra: Infra;
  let service: RunningService;
  let call: TestService<IdentityConfig, RunningService>["call"];
  let rpc: { stop(): Promise<void> };
  let scopesRpc: { stop(): Promise<void> };
  let audit: ReturnType<typeof recordAudit>;
  let ns: string;
  const orgId = randomUUID();
  const teamId = randomUUID();
  const otherTeam = randomUUID();
  let lead: Actor;
  let member: Actor;
  /** The service's clock runs with real time plus an offset the tests can move. */
  let offset = 0;

  beforeAll(async () => {
    t = await startIdentity({ workers: { apikey_usage_flush_interval: "1h", cleanup_interval: "1h" } }, { now: () => Date.now() + offset });
    ({ config, infra, service, call, ns } = t);
    audit = recordAudit(infra, ns);
    const register = async (name: string): Promise<Actor> => {
      const { user } = await registerUser(call, `${name}-${ns}@example.test`, { display_name: name });
      return { user_id: user.id, email: user.email, is_system_admin: false, session_id: null, api_key: null };
    };
    lead = await register("lead");
    member = await register("member");
    // Tenancy's answers over the real NATS: the lead holds everything in the team, the member only views.
    rpc = serveRpc(
      infra.nc,
      ns,
      RpcName.authorize,
      async (req) => {
        if (req.team_id !== teamId) return { allowed: false, reason: "team_not_found" };
        if (req.actor.user_id === lead.user_id) return { allowed: true, reason: null };
        if (req.actor.user_id === member.user_id && req.permission.endsWith(".view")) return { allowed: true, reason: null };
        return { allowed: false, reason: req.actor.user_id === member.user_id ? "missing_permission" : "not_member" };
      },
      infra.logger,
    );
    // tenancy's catalog of scopes: the built-in team keys and one a custom role added
    const known = [...TEAM_PERMISSIONS, "team.reports.view"];
    scopesRpc = serveRpc(
      infra.nc,
      ns,
      RpcName.teamScopes,
      async (req) => {
        if (req.team_id !== teamId) return { known, held: [] };
        if (req.actor.user_id === lead.user_id) return { known, held: known };
        if (req.actor.user_id === member.user_id) return { known, held: known.filter((p) => p.endsWith(".view")) };
        return { known, held: [] };
      },
      infra.logger,
    );
  });

  afterAll(async () => {
    audit?.stop();
    await scopesRpc?.stop();
    await rpc?.stop();
    await t?.stop();
  });

  const base = (team = teamId) => `/orgs/${orgId}/teams/${team}/api-keys`;
  const create = (body: Record<string, unknown>, actor: Actor = lead) =>
    call<Key & { code?: string; error?: string }>("POST", base(), { actor, body });
  /** The key's row as stored in Postgres. */
  const stored = async (id: string) =>
    (await infra.pool!.query<Record<string, unknown>>("SELECT * FROM api_keys WHERE id = $1", [id])).rows[0]!;
  const cached = async (hash: string) => {
    const v = await infra.redis!.get(redisKeys.apiKey(config.redis.key_prefix, hash));
    return v === null ? undefined : (JSON.parse(v) as { is_active: boolean; revoked_at: string | null } | null);
  };

  it("when a key is created, then raw_key is bb_ + 64 hex, shown once, and only its hash and prefix are stored", async () => {
    const res = await create({ name: "ci", scopes: ["team.inboxes.view", "team.emails.view"], expires_in: "2160h" });
    expect(res.status).toBe(201);
    expect(res.body.raw_key).toMatch(/^bb_[0-9a-f]{64}$/);
    expect(res.body.key_prefix).toBe(res.body.raw_key!.slice(0, 11));
    expect(Date.parse(res.body.expires_at!) - Date.now()).toBeGreaterThan(2159 * 3600_000);
    const row = await stored(res.body.id);
    expect(row.key_hash).toBe(sha256(res.body.raw_key!));
    expect(Object.values(row).map(String).join(" ")).not.toContain(res.body.raw_key!.slice(3));
    const got = await call<Key>("GET", `${base()}/${res.body.id}`, { actor: member });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("raw_key");
    const resolved = await rpcRequest(infra.nc, ns, RpcName.resolveApiKey, { key_hash: sha256(res.body.raw_key!) });
    expect(resolved.key).toMatchObject({ id: res.body.id, team_id: teamId, creator: { user_id: lead.user_id } });
    expect(await audit.next("apikey.created", res.body.id)).toEqual({
      action: "apikey.created",
      actor_user_id: lead.user_id,
      actor_api_key_id: null,
      target_type: "api_key",
      target_id: res.body.id,
      ip_address: "127.0.0.1",
      metadata: { name: "ci", scopes: ["team.inboxes.view", "team.emails.view"], key_prefix: res.body.key_prefix },
      actor_email: lead.email,
      user_agent: expect.any(String) as string,
    });
  });

  it("when scopes are unknown or IPs malformed, then 400; a scope the creator lacks is 403; a member cannot create", async () => {
    expect((await create({ name: "x", scopes: ["team.inboxes.fly"] })).status).toBe(400);
    expect((await create({ name: "x", scopes: ["team.inboxes.view"], allowed_ips: ["10.0.0.300"] })).status).toBe(400);
    expect((await create({ name: "x", scopes: ["team.inboxes.view"], allowed_ips: ["10.0.0.0/33"] })).status).toBe(400);
    expect((await create({ name: "x", scopes: ["team.inboxes.view"], expires_in: "soon" })).status).toBe(400);
    expect((await create({ name: "x", scopes: ["team.inboxes.view"] }, member)).status).toBe(403);
    const ok = await create({ name: "ips", scopes: ["team.view"], allowed_ips: ["192.168.1.0/24", "2001:DB8::/32", "::1"] });
    expect(ok.status).toBe(201);
    expect(ok.body.allowed_ips).toEqual(["192.168.1.0/24", "2001:db8::/32", "::1"]);
  });

  it("when a custom team role added a permission key, then it is a valid scope; a key no role has is 400", async () => {
    const custom = await create({ name: "reports", scopes: ["team.reports.view", "team.view"] });
    expect(custom.status).toBe(201);
    expect(custom.body.scopes).toEqual(["team.reports.view", "team.view"]);
    const unknown = await create({ name: "nope", scopes: ["team.reports.fly"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain("team.reports.fly");
    const patched = await call<Key>("PATCH", `${base()}/${custom.body.id}`, { actor: lead, body: { scopes: ["team.reports.fly"] } });
    expect(patched.status).toBe(400);
  });

  it("when a key is patched, revoked or rotated, then the gateway's cache holds the new state before the answer", async () => {
    const k = (await create({ name: "cycle", scopes: ["team.inboxes.view"] })).body;
    const hash = sha256(k.raw_key!);
    const patched = await call<Key>("PATCH", `${base()}/${k.id}`, { actor: lead, body: { is_active: false, name: "renamed" } });
    expect(patched.body).toMatchObject({ is_active: false });
    expect(await cached(hash)).toMatchObject({ is_active: false });

    const rotated = await call<Key>("POST", `${base()}/${k.id}/rotate`, { actor: lead });
    expect(rotated.status).toBe(200);
    expect(rotated.body.raw_key).toMatch(/^bb_[0-9a-f]{64}$/);
    expect(rotated.body.id).toBe(k.id);
    expect(await cached(hash)).toBeNull();
    expect((await rpcRequest(infra.nc, ns, RpcName.resolveApiKey, { key_hash: hash })).key).toBeNull();

    const revoked = await call("DELETE", `${base()}/${k.id}`, { actor: lead });
    expect(revoked.status).toBe(204);
    expect(await cached(sha256(rotated.body.raw_key!))).toMatchObject({ revoked_at: expect.any(String) });
    const row = await call<Key>("GET", `${base()}/${k.id}`, { actor: lead });
    expect(row.body.revoked_by).toBe(lead.user_id);
    expect((await call("PATCH", `${base()}/${k.id}`, { actor: lead, body: { name: "again" } })).status).toBe(409);
    expect((await call("POST", `${base()}/${k.id}/rotate`, { actor: lead })).status).toBe(409);
    expect((await call("DELETE", `${base()}/${k.id}`, { actor: lead })).status).toBe(204);
  });

  it("lists active keys by default and revoked ones with include_revoked; another team's key is not found", async () => {
    const active = (await create({ name: "listed", scopes: ["team.view"] })).body;
    const gone = (await create({ name: "gone", scopes: ["team.view"] })).body;
    await call("DELETE", `${base()}/${gone.id}`, { actor: lead });
    const list = await call<{ data: Key[]; total: number }>("GET", `${base()}?per_page=100`, { actor: lead });
    expect(list.body.data.map((k) => k.id)).toContain(active.id);
    expect(list.body.data.map((k) => k.id)).not.toContain(gone.id);
    const all = await call<{ data: Key[] }>("GET", `${base()}?per_page=100&include_revoked=true`, { actor: lead });
    expect(all.body.data.map((k) => k.id)).toContain(gone.id);
    expect((await call("GET", `${base()}?per_page=0`, { actor: lead })).status).toBe(400);
    expect((await call("GET", `${base(otherTeam)}/${active.id}`, { actor: lead })).status).toBe(404);
  });

  it("when keys are bulk revoked, then foreign, unknown and already revoked ids are skipped", async () => {
    const a = (await create({ name: "a", scopes: ["team.view"] })).body;
    const b = (await create({ name: "b", scopes: ["team.view"] })).body;
    const unknown = randomUUID();
    const res = await call<{ revoked: number; skipped: string[] }>("POST", `${base()}/bulk-revoke`, {
      actor: lead,
      body: { key_ids: [a.id, b.id, unknown] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2, skipped: [unknown] });
    const again = await call<{ revoked: number; skipped: string[] }>("POST", `${base()}/bulk-revoke`, {
      actor: lead,
      body: { key_ids: [a.id] },
    });
    expect(again.body).toEqual({ revoked: 0, skipped: [a.id] });
    const tooMany = Array.from({ length: 51 }, () => randomUUID());
    expect((await call("POST", `${base()}/bulk-revoke`, { actor: lead, body: { key_ids: tooMany } })).status).toBe(400);
  });

  it("shows exact usage from Redis before and after the batched flush to Postgres", async () => {
    const k = (await create({ name: "usage", scopes: ["team.view"] })).body;
    const prefix = config.redis.key_prefix;
    const usage = redisKeys.apiKeyUsage(prefix, k.id);
    for (let i = 0; i < 7; i++) {
      await infra
        .redis!.multi()
        .hincrby(usage, "count", 1)
        .hset(usage, "last_used_at", new Date(Date.now() + i).toISOString(), "last_used_ip", "203.0.113.9")
        .sadd(redisKeys.apiKeyUsageDirty(prefix), k.id)
        .exec();
    }
    const before = await call<Key>("GET", `${base()}/${k.id}`, { actor: lead });
    expect(before.body).toMatchObject({ request_count: 7, last_used_ip: "203.0.113.9" });
    await service.workers.usageFlush.runNow();
    expect(Number((await stored(k.id)).request_count)).toBe(7);
    expect(await infra.redis!.exists(usage)).toBe(0);
    await infra.redis!.multi().hincrby(usage, "count", 3).sadd(redisKeys.apiKeyUsageDirty(prefix), k.id).exec();
    const after = await call<Key>("GET", `${base()}/${k.id}`, { actor: lead });
    expect(after.body.request_count).toBe(10);
    expect(after.body.last_used_ip).toBe("203.0.113.9");
  });

  it("when a key's expiry passes, then the cleanup deletes it and keeps revoked and disabled keys", async () => {
    const expiring = (await create({ name: "short", scopes: ["team.view"], expires_in: "1h" })).body;
    const disabled = (await create({ name: "off", scopes: ["team.view"] })).body;
    const revoked = (await create({ name: "gone", scopes: ["team.view"] })).body;
    await call("PATCH", `${base()}/${disabled.id}`, { actor: lead, body: { is_active: false } });
    await call("DELETE", `${base()}/${revoked.id}`, { actor: lead });
    await service.workers.expiredCleanup.runNow();
    expect((await call("GET", `${base()}/${expiring.id}`, { actor: lead })).status).toBe(200);

    offset += 3_600_000;
    await service.workers.expiredCleanup.runNow();
    expect((await call("GET", `${base()}/${expiring.id}`, { actor: lead })).status).toBe(404);
    expect(await cached(sha256(expiring.raw_key!))).toBeNull();
    expect((await call("GET", `${base()}/${disabled.id}`, { actor: lead })).status).toBe(200);
    expect((await call("GET", `${base()}/${revoked.id}`, { actor: lead })).status).toBe(200);
  });
});
