import { randomUUID } from "node:crypto";
import { EventType, RpcName, type DomainEvent } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { SecretBox } from "@burnbox/service-kit/security";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { startDnsServer } from "./dns-server";
import { deliver, orgTeamDomain, startTenancy, type Tenancy } from "./support";

const KEY = "3c".repeat(32);
const admin = makeActor({ is_system_admin: true });
const mailerBody = { host: "smtp.example.com", port: 587, username: "mailer", from: "BurnBox <no-reply@example.com>", tls: true };

interface OutboxRow {
  payload: DomainEvent;
}

/** The outbox rows of a type, oldest first (events and audit entries leave the service through them). */
async function outbox(t: Tenancy, type: string): Promise<DomainEvent[]> {
  const { rows } = await t.infra.pool!.query<OutboxRow>(
    "SELECT payload FROM outbox_events WHERE payload->>'type' = $1 ORDER BY created_at",
    [type],
  );
  return rows.map((r) => r.payload);
}

/** The DNS every tenancy of this file asks (`dns.servers`): the mailer names are public, the rest as each test sets. */
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  dns = await startDnsServer();
  for (const name of ["smtp.example.com", "smtp2.example.com"]) dns.zones.set(name, { a: ["93.184.215.14"] });
});
afterAll(async () => {
  await dns?.close();
});

describe("mailer.allowed_ports (tenancy, on real Postgres and NATS)", () => {
  let open: Tenancy;
  let t: Tenancy;
  beforeAll(async () => {
    t = await startTenancy({ encryption: { key: KEY }, dns: { servers: [dns.address] } });
    open = await startTenancy({ encryption: { key: KEY }, dns: { servers: [dns.address] }, mailer: { allowed_ports: [587, 1025, 2587] } });
  });
  afterAll(async () => {
    await t?.stop();
    await open?.stop();
  });

  it("when a mailer on a local relay's port 1025 is saved, then the defaults refuse it naming the allowed ports, and a setting that lists 1025 accepts it", async () => {
    const relay = { ...mailerBody, port: 1025 };
    const refused = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: relay });
    expect([refused.status, refused.body]).toEqual([
      400,
      { code: "validation_error", error: "mailer port not allowed: use one of 25, 465, 587, 2525" },
    ]);
    expect((await t.call<{ port: number }>("GET", "/admin/config/mailer", { actor: admin })).body.port).not.toBe(1025);

    const saved = await open.call("PUT", "/admin/config/mailer", { actor: admin, body: relay });
    expect([saved.status, saved.body]).toEqual([200, { ...relay, has_password: false }]);
    expect((await open.call("GET", "/admin/config/mailer", { actor: admin })).body).toEqual({ ...relay, has_password: false });
    // the setting replaces the defaults: 25 is now refused, with the configured list
    const other = await open.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, port: 25 } });
    expect([other.status, other.body]).toEqual([
      400,
      { code: "validation_error", error: "mailer port not allowed: use one of 587, 1025, 2587" },
    ]);
  });
});

describe("platform mailer and storage configuration (tenancy, on real Postgres and NATS)", () => {
  let t: Tenancy;

  beforeAll(async () => {
    t = await startTenancy({ encryption: { key: KEY }, dns: { servers: [dns.address] } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it.each([
    [
      "a loopback address on a non-SMTP port (the probe's report)",
      "127.0.0.1",
      6390,
      "mailer port not allowed: use one of 25, 465, 587, 2525",
    ],
    ["a loopback address on an SMTP port", "127.0.0.1", 587, "mailer host is not allowed"],
    ["a site-local IPv6 address", "fec0::1", 587, "mailer host is not allowed"],
    ["an SRv6 address", "5f00::1", 25, "mailer host is not allowed"],
    ["a name resolving to a private address", "smtp.private.example.com", 587, "mailer host is not allowed"],
    ["an internal name", "mail.internal", 587, "mailer host is not allowed"],
    ["a public name on a port outside the SMTP list", "smtp.example.com", 6390, "mailer port not allowed: use one of 25, 465, 587, 2525"],
  ])("when the saved mailer is %s, then the PUT is a 400 and nothing is saved", async (_what, host, port, error) => {
    dns.zones.set("smtp.private.example.com", { a: ["10.20.30.40"] });
    const before = await t.call("GET", "/admin/config/mailer", { actor: admin });
    const res = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, host, port } });
    expect([res.status, res.body]).toEqual([400, { code: "validation_error", error }]);
    expect((await t.call("GET", "/admin/config/mailer", { actor: admin })).body).toEqual(before.body);
  });

  it("when a mailer password is saved, then it is stored sealed, never answered, and handed to identity only sealed", async () => {
    const password = `pw-${randomUUID()}`;
    const put = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, password } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...mailerBody, has_password: true });
    const get = await t.call("GET", "/admin/config/mailer", { actor: admin });
    expect(get.body).toEqual({ ...mailerBody, has_password: true });

    const { rows } = await t.infra.pool!.query<{ value: unknown; secret_sealed: string }>(
      "SELECT value, secret_sealed FROM platform_config WHERE key = 'mailer'",
    );
    expect(JSON.stringify(rows)).not.toContain(password);
    expect(rows[0]?.secret_sealed).toMatch(/^v1\./);

    const reply = await rpcRequest(t.infra.nc, t.ns, RpcName.mailerConfig, {});
    expect(JSON.stringify(reply)).not.toContain(password);
    expect(new SecretBox(KEY).open(reply.mailer!.password_sealed!)).toBe(password);

    const changed = await outbox(t, EventType.mailerConfigChanged);
    expect(changed.length).toBeGreaterThanOrEqual(1);
    const audits = (await outbox(t, EventType.auditRecorded)).filter(
      (e) => e.type === "audit.recorded" && e.data.action === "admin.mailer_config_updated",
    );
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(password);
  });

  it('when the password is "" or absent it is kept, and when it is null it is cleared', async () => {
    await t.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, password: "first" } });
    const sealedBefore = (await rpcRequest(t.infra.nc, t.ns, RpcName.mailerConfig, {})).mailer?.password_sealed;
    const kept = await t.call("PUT", "/admin/config/mailer", {
      actor: admin,
      body: { ...mailerBody, host: "smtp2.example.com", password: "" },
    });
    expect(kept.body).toMatchObject({ host: "smtp2.example.com", has_password: true });
    await t.call("PUT", "/admin/config/mailer", { actor: admin, body: mailerBody });
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.mailerConfig, {})).mailer?.password_sealed).toBe(sealedBefore);
    const cleared = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, password: null } });
    expect(cleared.body).toMatchObject({ has_password: false });
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.mailerConfig, {})).mailer?.password_sealed).toBeNull();
  });

  it("when a user who is no system admin, or an admin's API key, calls, then every operation is 403", async () => {
    const key = makeActor({ is_system_admin: true, api_key: { id: randomUUID(), team_id: randomUUID(), scopes: ["team.view"] } });
    for (const actor of [makeActor(), key]) {
      for (const [method, path, body] of [
        ["GET", "/admin/config/mailer", undefined],
        ["PUT", "/admin/config/mailer", { ...mailerBody, password: "x" }],
        ["GET", "/admin/config/storage", undefined],
        ["PUT", "/admin/config/storage", { provider: "local" }],
        ["POST", "/admin/infra/test-smtp", undefined],
        ["POST", "/admin/infra/test-storage", undefined],
      ] as const) {
        const res = await t.call(method, path, { actor, ...(body ? { body } : {}) });
        expect({ path, status: res.status, code: (res.body as { code?: string }).code }).toEqual({ path, status: 403, code: "forbidden" });
      }
    }
  });

  it("when a storage check cannot connect, then the PUT is a 400 with a generic message and nothing changes", async () => {
    const before = await t.call("GET", "/admin/config/storage", { actor: admin });
    const res = await t.call("PUT", "/admin/config/storage", {
      actor: admin,
      body: { provider: "s3", endpoint: "127.0.0.1:9000", bucket: "mail", access_key: "a", secret_key: "b", use_ssl: false },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "storage check failed: host is not allowed", code: "validation_error" });
    expect((await t.call("GET", "/admin/config/storage", { actor: admin })).body).toEqual(before.body);
  });

  it("when a kept secret key cannot be opened with this key, then the PUT is a 400 asking for it again", async () => {
    await t.infra.pool!.query(
      `INSERT INTO platform_config (key, value, secret_sealed) VALUES ('storage', '{"provider":"s3","bucket":"mail"}', 'v1.AAAA.BBBB.CCCC')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, secret_sealed = EXCLUDED.secret_sealed`,
    );
    const res = await t.call("PUT", "/admin/config/storage", {
      actor: admin,
      body: { provider: "s3", endpoint: "s3.example.com", bucket: "mail", access_key: "a" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", error: expect.stringMatching(/give secret_key again/) });
  });

  it("when local storage is saved, then the inbox service is told (event) and can fetch it (RPC)", async () => {
    const res = await t.call("PUT", "/admin/config/storage", { actor: admin, body: { provider: "local", local_path: "/var/lib/burnbox" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider: "local", local_path: "/var/lib/burnbox", has_secret_key: false });
    const reply = await rpcRequest(t.infra.nc, t.ns, RpcName.storageConfig, {});
    expect(reply.storage).toMatchObject({ provider: "local", local_path: "/var/lib/burnbox", secret_key_sealed: null });
    expect((await outbox(t, EventType.storageConfigChanged)).length).toBeGreaterThanOrEqual(1);
    const test = await t.call("POST", "/admin/infra/test-storage", { actor: admin });
    expect(test.body).toMatchObject({ success: true });
  });

  it("when identity's platform TTLs change, then tenancy's cascade follows them on the event", async () => {
    const owner = makeActor();
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const assignment = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id },
    });
    const ttlOf = async () => (await rpcRequest(t.infra.nc, t.ns, RpcName.getAssignment, { assignment_id: assignment.body.id })).assignment;
    expect(await ttlOf()).toMatchObject({ default_ttl_seconds: 600, max_ttl_seconds: 86_400 });

    // identity's side of the exchange: the settings over RPC, then the change event
    const identity = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.platformSettings,
      () =>
        Promise.resolve({
          max_sessions_per_user: 5,
          allow_registration: true,
          demo_enabled: null,
          default_inbox_ttl: "7m",
          max_inbox_ttl: "2h",
        }),
      t.infra.logger,
    );
    try {
      await deliver(t, {
        id: randomUUID(),
        type: EventType.platformSettingsChanged,
        version: 1,
        occurred_at: new Date().toISOString(),
        org_id: null,
        team_id: null,
        data: {},
      });
      await waitFor(async () => (await ttlOf())?.default_ttl_seconds === 420, { what: "the platform's default TTL applied" });
      expect(await ttlOf()).toMatchObject({ default_ttl_seconds: 420, max_ttl_seconds: 7200 });
      const org = await t.call<{ settings: Record<string, unknown> }>("GET", `/orgs/${orgId}`, { actor: owner });
      expect(org.body.settings).toMatchObject({ default_inbox_ttl: "7m", max_inbox_ttl: "2h" });
      // an org may not set a maximum above the platform's
      const tooLong = await t.call("PATCH", `/orgs/${orgId}/settings`, { actor: owner, body: { max_inbox_ttl: "3h" } });
      expect(tooLong.status).toBe(400);
    } finally {
      await identity.stop();
    }
  });
});

describe("platform secrets without encryption.key", () => {
  let t: Tenancy;

  beforeAll(async () => {
    t = await startTenancy({ dns: { servers: [dns.address] } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when a secret is to be stored without a key, then it is a 400 and nothing is written", async () => {
    const res = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: { ...mailerBody, password: "secret" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", error: expect.stringMatching(/encryption.key/) });
    const storage = await t.call("PUT", "/admin/config/storage", {
      actor: admin,
      body: { provider: "s3", endpoint: "s3.example.com", bucket: "mail", access_key: "a", secret_key: "b" },
    });
    expect(storage.status).toBe(400);
    expect(storage.body).toMatchObject({ error: expect.stringMatching(/encryption.key/) });
    const { rows } = await t.infra.pool!.query("SELECT key FROM platform_config");
    expect(rows).toEqual([]);
    // a mailer without a secret needs no key
    const plain = await t.call("PUT", "/admin/config/mailer", { actor: admin, body: mailerBody });
    expect(plain.body).toEqual({ ...mailerBody, has_password: false });
  });
});
