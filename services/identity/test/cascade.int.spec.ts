import { createHash, randomUUID } from "node:crypto";
import { RpcName, subjects, TEAM_PERMISSIONS, redisKeys, type Actor } from "@burnbox/contracts";
import { newEvent, publishEvent, rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { waitFor, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { IdentityConfig } from "../src/config";
import { REMOVAL_BATCH } from "../src/domain/tenants/api-key-removal";
import { PASSWORD, registerUser, startIdentity } from "./support";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Identity on real Postgres, Redis and NATS: tenancy's removals and moves of teams' API keys, and enforce_sso failing closed. */
describe("identity: tenancy's removals and enforce_sso", () => {
  let t: TestService<IdentityConfig, RunningService>;
  let lead: Actor;
  let stops: Array<{ stop(): Promise<void> }> = [];
  /** What tenancy answers to "does an org of this user enforce SSO"; null: tenancy does not answer. */
  let enforced: boolean | null = false;
  let enforcedRpc: { stop(): Promise<void> } | null = null;

  beforeAll(async () => {
    t = await startIdentity({}, { tenancy: false });
    const { user } = await registerUser(t.call, `lead-${t.ns}@example.test`);
    lead = { user_id: user.id, email: user.email, is_system_admin: false, session_id: null, api_key: null };
    // tenancy over the real NATS: the lead holds every team permission in every team
    stops = [
      serveRpc(t.infra.nc, t.ns, RpcName.authorize, async () => ({ allowed: true, reason: null }), t.infra.logger),
      serveRpc(
        t.infra.nc,
        t.ns,
        RpcName.teamScopes,
        async () => ({ known: [...TEAM_PERMISSIONS], held: [...TEAM_PERMISSIONS] }),
        t.infra.logger,
      ),
    ];
  });

  afterAll(async () => {
    await enforcedRpc?.stop();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const team = () => ({ orgId: randomUUID(), teamId: randomUUID() });
  const createKey = (scope: { orgId: string; teamId: string }) =>
    t.call<{ id: string; raw_key: string }>("POST", `/orgs/${scope.orgId}/teams/${scope.teamId}/api-keys`, {
      actor: lead,
      body: { name: "k", scopes: ["team.inboxes.view"] },
    });
  const handled = (eventId: string) =>
    waitFor(async () => (await t.infra.pool!.query("SELECT 1 FROM processed_events WHERE event_id = $1", [eventId])).rowCount === 1, {
      what: "event handled",
    });
  const keyCount = async (column: "team_id" | "org_id", id: string) =>
    Number((await t.infra.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_keys WHERE ${column} = $1`, [id])).rows[0]!.n);
  /** `n` keys of the team straight in Postgres (a large team, quickly). */
  const bulkKeys = (scope: { orgId: string; teamId: string }, n: number) =>
    t.infra.pool!.query(
      `INSERT INTO api_keys (id, org_id, team_id, created_by, name, key_prefix, key_hash, scopes, allowed_ips, updated_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'bulk', 'bb_bulk', md5(random()::text) || md5(random()::text), '{team.view}', '{}', now()
       FROM generate_series(1, $4::int)`,
      [scope.orgId, scope.teamId, lead.user_id, n],
    );

  it("when a team is deleted, then its keys go in batches, resolve to nothing, the gateway's cache says so, and none is created again", async () => {
    const scope = team();
    const sibling = { orgId: scope.orgId, teamId: randomUUID() };
    const key = await createKey(scope);
    expect(key.status).toBe(201);
    const kept = await createKey(sibling);
    await bulkKeys(scope, REMOVAL_BATCH + 20);
    const hash = sha256(key.body.raw_key);
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.resolveApiKey, { key_hash: hash })).key).not.toBeNull();

    const event = newEvent("team.deleted", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
    await publishEvent(t.infra.js, t.ns, event);
    await handled(event.id);
    expect(await keyCount("team_id", scope.teamId)).toBe(0);
    expect(await rpcRequest(t.infra.nc, t.ns, RpcName.resolveApiKey, { key_hash: hash })).toEqual({ key: null });
    expect(await t.infra.redis!.get(redisKeys.apiKey(t.config.redis.key_prefix, hash))).toBe("null");
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.resolveApiKey, { key_hash: sha256(kept.body.raw_key) })).key).not.toBeNull();
    expect((await createKey(scope)).status).toBe(404);
  });

  it("when tenancy asks before answering a team's deletion, then its keys are gone and cached as nothing when the reply comes; the event then changes nothing", async () => {
    const scope = team();
    const key = await createKey(scope);
    expect(key.status).toBe(201);
    await bulkKeys(scope, 3);
    const hash = sha256(key.body.raw_key);
    const reply = await rpcRequest(t.infra.nc, t.ns, RpcName.removeTenantKeys, { org_id: scope.orgId, team_id: scope.teamId });
    expect(reply).toEqual({ removed: 4 });
    expect(await keyCount("team_id", scope.teamId)).toBe(0);
    expect(await t.infra.redis!.get(redisKeys.apiKey(t.config.redis.key_prefix, hash))).toBe("null");
    expect((await createKey(scope)).status).toBe(404);
    const event = newEvent("team.deleted", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
    await publishEvent(t.infra.js, t.ns, event);
    await handled(event.id);
    expect(await keyCount("team_id", scope.teamId)).toBe(0);
  });

  it("when an org is deleted, then the keys of all its teams go; a redelivery changes nothing", async () => {
    const a = team();
    const b = { orgId: a.orgId, teamId: randomUUID() };
    await bulkKeys(a, 5);
    await bulkKeys(b, 5);
    const stranger = team();
    await bulkKeys(stranger, 2);
    const event = newEvent("org.deleted", { org_id: a.orgId, team_id: null, data: { org_id: a.orgId, team_ids: [a.teamId, b.teamId] } });
    await publishEvent(t.infra.js, t.ns, event);
    await handled(event.id);
    expect(await keyCount("org_id", a.orgId)).toBe(0);
    expect(await keyCount("org_id", stranger.orgId)).toBe(2);
    // republished as a new message (a fresh message id, past the stream's dedup): the consumer gets it again
    await t.infra.js.publish(subjects(t.ns).event(event.type), JSON.stringify(event), { msgID: randomUUID() });
    const sentinel = newEvent("org.deleted", { org_id: randomUUID(), team_id: null, data: { org_id: randomUUID(), team_ids: [] } });
    await publishEvent(t.infra.js, t.ns, sentinel);
    await handled(sentinel.id);
    expect((await t.infra.pool!.query("SELECT 1 FROM processed_events WHERE event_id = $1", [event.id])).rowCount).toBe(1);
    expect((await createKey(b)).status).toBe(404);
  });

  it("when a team moves to another org, then its keys are found under the new org only", async () => {
    const scope = team();
    const key = await createKey(scope);
    const toOrg = randomUUID();
    const event = newEvent("team.transferred", {
      org_id: scope.orgId,
      team_id: scope.teamId,
      data: { team_id: scope.teamId, from_org_id: scope.orgId, to_org_id: toOrg },
    });
    await publishEvent(t.infra.js, t.ns, event);
    await handled(event.id);
    expect((await t.call("GET", `/orgs/${toOrg}/teams/${scope.teamId}/api-keys/${key.body.id}`, { actor: lead })).status).toBe(200);
    expect((await t.call("GET", `/orgs/${scope.orgId}/teams/${scope.teamId}/api-keys/${key.body.id}`, { actor: lead })).status).toBe(404);
  });

  describe("enforce_sso", () => {
    const answer = async (value: boolean | null) => {
      enforced = value;
      await enforcedRpc?.stop();
      enforcedRpc = null;
      if (value !== null)
        enforcedRpc = serveRpc(t.infra.nc, t.ns, RpcName.ssoEnforced, async () => ({ enforced: !!enforced }), t.infra.logger);
    };
    const logIn = () =>
      t.call<{ error?: string; code?: string; tokens?: unknown }>("POST", "/auth/login", {
        actor: null,
        body: { email: lead.email, password: PASSWORD },
      });

    it("when tenancy cannot say whether an org enforces SSO, then a password login fails closed with 503; it answers again, and the login works", async () => {
      await answer(null);
      const down = await logIn();
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ error: "sign-in is temporarily unavailable, try again shortly", code: "error" });
      await answer(true);
      expect((await logIn()).status).toBe(403);
      await answer(false);
      const ok = await logIn();
      expect(ok.status).toBe(200);
      expect(ok.body.tokens).toBeDefined();
    });
  });
});
