import { randomUUID } from "node:crypto";
import { RpcName, type User } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { orgTeamDomain, startTenancy, trustedDomainName, type Tenancy } from "./support";

const TOKEN = "setup-token-for-tests";

/**
 * Identity's half of setup, over the real NATS: a stand-in that creates one admin while none
 * exists, and records undo requests, so tenancy's all-or-nothing handling is observable.
 */
function identityStandIn(t: Tenancy) {
  const state = { admin: null as User | null, aborted: [] as string[] };
  const user = (email: string): User => ({
    id: randomUUID(),
    email,
    display_name: "Root",
    is_system_admin: true,
    email_verified: true,
    sso_provider: null,
    timezone: null,
    date_format: null,
    time_format: null,
    max_sessions: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    last_login_at: null,
  });
  const none = { problem: null, user: null, tokens: null, cookie: null };
  const subs = [
    serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.setupState,
      async () => ({ admin_exists: state.admin !== null, setup_admin_id: state.admin?.id ?? null }),
      t.infra.logger,
    ),
    serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.setupCreateAdmin,
      async (req) => {
        if (state.admin) return { outcome: "completed" as const, ...none };
        state.admin = user(req.email);
        const cookie = req.use_cookie
          ? {
              name: "bb_refresh_token",
              value: "rt",
              path: "/api/v1/auth",
              max_age_ms: 60_000,
              http_only: true,
              secure: true,
              same_site: "lax" as const,
            }
          : null;
        return {
          outcome: "created" as const,
          problem: null,
          user: state.admin,
          tokens: { access_token: "at", refresh_token: req.use_cookie ? "" : "rt", expires_in: 900 },
          cookie,
        };
      },
      t.infra.logger,
    ),
    serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.setupAbort,
      async (req) => {
        state.aborted.push(req.user_id);
        const removed = state.admin?.id === req.user_id;
        if (removed) state.admin = null;
        return { removed };
      },
      t.infra.logger,
    ),
  ];
  return { state, stop: () => Promise.all(subs.map((s) => s.stop())) };
}

const completeBody = (domainName: string) => ({
  setup_token: TOKEN,
  admin: { email: "root@example.test", password: "Correct-Horse-9-Battery", display_name: "Root" },
  org: { name: "Setup Org" },
  team: { name: "Ops" },
  domain: { domain_name: domainName },
});

describe("setup complete across tenancy and identity", () => {
  let t: Tenancy;
  let identity: ReturnType<typeof identityStandIn>;

  beforeEach(async () => {
    t = await startTenancy({ setup: { token: TOKEN } });
    identity = identityStandIn(t);
  });
  afterEach(async () => {
    await identity?.stop();
    await t?.stop();
  });

  const completed = async () =>
    (await t.infra.pool!.query<{ c: boolean }>("SELECT completed_at IS NOT NULL AS c FROM setup_state")).rows[0]?.c ?? false;
  const orgsNamed = async (name: string) =>
    Number((await t.infra.pool!.query<{ n: string }>("SELECT count(*) AS n FROM orgs WHERE name = $1", [name])).rows[0]?.n);

  it("when tenancy's half fails after identity created the admin, then the admin is undone, nothing of tenancy's is left, and setup stays open", async () => {
    // a domain another org already holds makes tenancy's transaction fail midway (after the org insert)
    const owner = { user_id: randomUUID(), email: "o@example.test", is_system_admin: false, session_id: null, api_key: null };
    const taken = await orgTeamDomain(t, owner);
    const res = await t.call<{ code: string }>("POST", "/setup/complete", { actor: null, body: completeBody(taken.domain.domain_name) });
    expect(res.status).toBe(409);
    expect(identity.state.aborted).toHaveLength(1);
    expect(identity.state.admin).toBeNull();
    expect(await orgsNamed("Setup Org")).toBe(0);
    expect(await completed()).toBe(false);
    expect((await t.call<{ completed: boolean }>("GET", "/setup/status", { actor: null })).body.completed).toBe(false);

    // and a retry with a free domain then succeeds
    const ok = await t.call<{ org: { id: string }; user: { id: string } }>("POST", "/setup/complete", {
      actor: null,
      body: completeBody(trustedDomainName()),
    });
    expect(ok.status).toBe(201);
    expect(await completed()).toBe(true);
    const members = await t.infra.pool!.query<{ user_id: string; role: string }>(
      "SELECT user_id, role FROM org_members WHERE org_id = $1",
      [ok.body.org.id],
    );
    expect(members.rows).toEqual([{ user_id: ok.body.user.id, role: "owner" }]);
  });

  it("when setup is complete, then complete is 409 and the tests 403 whatever the token or body, and status hides the datastores", async () => {
    expect((await t.call("POST", "/setup/complete", { actor: null, body: completeBody(trustedDomainName()) })).status).toBe(201);
    for (const body of [completeBody(trustedDomainName()), {}, { setup_token: "x" }]) {
      expect((await t.call("POST", "/setup/complete", { actor: null, body })).status).toBe(409);
    }
    expect((await t.call("POST", "/setup/test-storage", { actor: null, body: { setup_token: TOKEN, provider: "local" } })).status).toBe(
      403,
    );
    expect((await t.call("GET", "/setup/status", { actor: null })).body).toEqual({ completed: true });
    expect(identity.state.aborted).toEqual([]);
  });

  it("when setup completes in cookie mode, then the refresh token is set as identity's httpOnly cookie and not in the body", async () => {
    const res = await t.call<{ tokens: { refresh_token: string } }>("POST", "/setup/complete", {
      actor: null,
      body: { ...completeBody(trustedDomainName()), use_cookie: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.tokens.refresh_token).toBe("");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^bb_refresh_token=rt;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
    expect(cookie).toMatch(/Secure/);
  });

  it("when the mailer in setup carries a password and no encryption key is configured, then it is 400 before any admin is created", async () => {
    const res = await t.call<{ code: string }>("POST", "/setup/complete", {
      actor: null,
      body: {
        ...completeBody(trustedDomainName()),
        mailer: { host: "93.184.215.14", port: 587, from: "a@example.com", tls: true, password: "secret" },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/encryption.key/) });
    expect(identity.state.admin).toBeNull();
    expect(await completed()).toBe(false);
  });

  it("when the mailer in setup is one the SMTP probe would refuse, then it is 400 before any admin is created", async () => {
    for (const [host, port] of [
      ["127.0.0.1", 6390],
      ["10.0.0.5", 587],
      ["fec0::1", 587],
      ["93.184.215.14", 6390],
    ] as const) {
      const res = await t.call<{ code: string }>("POST", "/setup/complete", {
        actor: null,
        body: { ...completeBody(trustedDomainName()), mailer: { host, port, from: "a@example.com", tls: true } },
      });
      expect([host, res.status, res.body.code]).toEqual([host, 400, "validation_error"]);
    }
    expect(identity.state.admin).toBeNull();
    expect(await completed()).toBe(false);
  });
});

describe("the generated setup token", () => {
  it("when two replicas start on one database, then both accept the one token, which only the first logged", async () => {
    const first = await startTenancy();
    // the same database and NATS namespace: a second replica of the same installation
    const second = await startTenancy({ database: { url: first.dbUrl }, nats: { namespace: first.ns } });
    try {
      const logged = [first, second].flatMap((t) => t.logs.entries().filter((e) => typeof e.setup_token === "string"));
      expect(logged).toHaveLength(1);
      const token = logged[0]!.setup_token as string;
      const identity = identityStandIn(first);
      try {
        for (const t of [first, second]) {
          const res = await t.call("POST", "/setup/test-storage", { actor: null, body: { setup_token: token, provider: "local" } });
          expect(res.status).toBe(200);
        }
      } finally {
        await identity.stop();
      }
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it("when setup.token is not set, then one is generated, logged once, and only it passes", async () => {
    const t = await startTenancy();
    try {
      const lines = t.logs.entries().filter((e) => typeof e.setup_token === "string");
      expect(lines).toHaveLength(1);
      const token = lines[0]!.setup_token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const identity = identityStandIn(t);
      try {
        const probe = (setup_token: string) =>
          t.call("POST", "/setup/test-storage", { actor: null, body: { setup_token, provider: "local" } });
        expect((await probe("wrong")).status).toBe(403);
        expect((await probe(token)).status).toBe(200);
      } finally {
        await identity.stop();
      }
    } finally {
      await t.stop();
    }
  });
});
