/// <reference types="@burnbox/test-kit/src/s3rver" />
import { randomBytes, randomInt } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import dns2 from "dns2";
import S3rver from "s3rver";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { close, intakeRelay } from "./relays";
import { apiClient } from "./clients";
import { System, TRUSTED_DOMAIN } from "./system";
import { STRONG_PASSWORD, newClientIp, registerUser } from "./world";

const { Packet } = dns2;

/**
 * First-run setup on a fresh installation (issue 15): a system of its own, with fresh databases
 * and no `admin.emails`, so nothing is set up yet. Its tenancy may reach 127.77.0.0/16 only
 * (`infra.unsafe_allowed_targets`), where the test puts a relay to the intake and an S3 server;
 * 127.0.0.1 and every other internal address stay refused. The same system then shows admin health
 * turning 503 when a service stops (the shared system stays up).
 */
const SETUP_TOKEN = `setup-${randomBytes(12).toString("hex")}`;
const ALLOWED = "127.77.0.0/16";
const allowedAddress = () => `127.77.${randomInt(0, 256)}.${randomInt(1, 255)}`;

type Envelope = { error: string; code: string };
type Probe = { success: boolean; message: string; response_time_ms: number };
type Tokens = { access_token: string; refresh_token: string; expires_in: number };
type Completed = {
  user: { id: string; email: string; is_system_admin: boolean };
  org: { id: string; name: string };
  team: { id: string; name: string };
  domain: { id: string; domain_name: string; status: string };
  tokens: Tokens;
};

/** The DNS the system asks (`dns.servers`): names in `a` answer those IPv4 addresses, the rest NXDOMAIN. */
async function worldDns(port: number, a: Record<string, string>) {
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const address = question ? a[question.name.toLowerCase()] : undefined;
      if (question && address && question.type === Packet.TYPE.A) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, address }));
      } else if (!address) response.header.rcode = 3;
      void send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return { close: () => server.close() };
}

describe("first-run setup on a fresh installation", () => {
  let system: System;
  let api: ReturnType<typeof apiClient>;
  let dns: { close(): Promise<void> };
  const ip = newClientIp();
  const call = <T = Record<string, unknown>>(method: string, p: string, opts: { token?: string; body?: unknown } = {}) =>
    api<T>(method, p, { ...opts, headers: { "x-forwarded-for": ip } });

  beforeAll(async () => {
    system = await System.start({
      tenancy: { BB_SETUP_TOKEN: SETUP_TOKEN, BB_INFRA_UNSAFE_ALLOWED_TARGETS: ALLOWED, BB_ENCRYPTION_KEY: "7a".repeat(32) },
      "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1" },
    });
    api = apiClient(system.gatewayUrl);
    dns = await worldDns(system.ports.dns, { "smtp.private-name.example": "10.20.30.40", "smtp.loopback-name.example": "127.0.0.1" });
  }, 180_000);

  afterAll(async () => {
    await dns?.close();
    await system?.stop();
  });

  it("when nothing is set up, then status is incomplete and names the datastores without credentials", async () => {
    const res = await call<{ completed: boolean; datastores: Record<string, string> }>("GET", "/setup/status");
    expect(res.status).toBe(200);
    expect(res.body.completed).toBe(false);
    const ds = res.body.datastores;
    expect(Object.keys(ds).sort()).toEqual(["nats", "postgres", "redis", "storage"]);
    const pg = new URL(testDatabaseUrl(system.databaseName("tenancy")));
    expect(ds.postgres).toBe(`${pg.hostname}:${pg.port || 5432}/${system.databaseName("tenancy")}`);
    expect(ds.redis).toMatch(/^[^@/]+:\d+(\/\d+)?$/);
    expect(ds.nats).toMatch(/^[^@/]+:\d+\/[a-z0-9_-]+$/);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("@");
    expect(text).not.toContain("://");
    if (pg.password) expect(text).not.toContain(decodeURIComponent(pg.password));
    if (pg.username) expect(text).not.toContain(`${decodeURIComponent(pg.username)}:`);
  });

  it("when the setup token is missing or wrong, then the tests and complete are 403 and nothing is created", async () => {
    const smtp = { host: "smtp.example.com", port: 587, tls: false };
    for (const token of [undefined, "wrong-token", ""]) {
      const body = token === undefined ? smtp : { ...smtp, setup_token: token };
      expect((await call("POST", "/setup/test-smtp", { body })).status).toBe(403);
      expect((await call("POST", "/setup/test-storage", { body: { provider: "local", setup_token: token } })).status).toBe(403);
      const complete = await call<Envelope>("POST", "/setup/complete", {
        body: {
          setup_token: token,
          admin: { email: "root@example.test", password: STRONG_PASSWORD, display_name: "Root" },
          org: { name: "Acme" },
        },
      });
      expect(complete.status).toBe(403);
      expect(complete.body.code).toBe("forbidden");
    }
    // garbage with a wrong token is still 403: the token is decided before the body
    expect((await call("POST", "/setup/complete", { body: { setup_token: "nope", admin: 42 } })).status).toBe(403);
    expect((await call<{ completed: boolean }>("GET", "/setup/status")).body.completed).toBe(false);
  });

  it("when the SMTP test names an internal address, a name resolving to one, or a port other than 25/465/587/2525, then it is refused", async () => {
    const probe = (body: Record<string, unknown>) =>
      call<Probe>("POST", "/setup/test-smtp", { body: { setup_token: SETUP_TOKEN, tls: false, ...body } });
    // the intake itself listens on 127.0.0.1: reachable, yet refused (not in infra.unsafe_allowed_targets)
    const relayOnLoopback = await intakeRelay("127.0.0.1", system.ports.smtp).catch(() => null);
    try {
      for (const target of [
        { host: "127.0.0.1", port: 2525 },
        { host: "127.0.0.1", port: system.ports.smtp },
        { host: "10.0.0.1", port: 587 },
        { host: "169.254.169.254", port: 25 },
        { host: "localhost", port: 25 },
        { host: "smtp.private-name.example", port: 587 },
        { host: "smtp.loopback-name.example", port: 2525 },
        { host: "smtp.example.com", port: 22 },
        { host: allowedAddress(), port: 22 },
      ]) {
        const res = await probe(target);
        expect({ target, status: res.status, success: res.body.success }).toEqual({ target, status: 200, success: false });
        expect(res.body.message).toMatch(/^(host is not allowed|port not allowed: use one of 25, 465, 587, 2525)$/);
      }
      expect((await probe({ host: "smtp.private-name.example", port: 587 })).body.message).toBe("host is not allowed");
      expect((await probe({ host: "smtp.example.com", port: 22 })).body.message).toMatch(/^port not allowed/);
    } finally {
      if (relayOnLoopback) await close(relayOnLoopback);
    }
  });

  it("when the SMTP or storage test targets an allowed address, then it connects there: the intake answers, S3 finds the bucket", async () => {
    const relayAddress = allowedAddress();
    const relay = await intakeRelay(relayAddress, system.ports.smtp);
    const directory = await mkdtemp(path.join(tmpdir(), "bb-e2e-setup-s3-"));
    const s3Address = allowedAddress();
    const s3 = new S3rver({ address: s3Address, port: 9000, silent: true, directory, configureBuckets: [{ name: "setup-mail" }] });
    await s3.run();
    try {
      const smtp = await call<Probe>("POST", "/setup/test-smtp", {
        body: { setup_token: SETUP_TOKEN, host: relayAddress, port: 2525, tls: false },
      });
      expect(smtp.status).toBe(200);
      expect(smtp.body).toMatchObject({ success: true, message: "SMTP connection successful" });
      expect(smtp.body.response_time_ms).toBeGreaterThanOrEqual(0);

      const storage = {
        setup_token: SETUP_TOKEN,
        provider: "s3",
        endpoint: `${s3Address}:9000`,
        use_ssl: false,
        access_key: "S3RVER",
        secret_key: "S3RVER",
      };
      const found = await call<Probe>("POST", "/setup/test-storage", { body: { ...storage, bucket: "setup-mail" } });
      expect(found.body).toMatchObject({ success: true, message: "storage connection successful" });
      const missing = await call<Probe>("POST", "/setup/test-storage", { body: { ...storage, bucket: "no-such-bucket" } });
      expect(missing.body).toMatchObject({ success: false, message: "bucket not found" });
      const loopback = await call<Probe>("POST", "/setup/test-storage", {
        body: { ...storage, endpoint: "127.0.0.1:9000", bucket: "setup-mail" },
      });
      expect(loopback.body).toMatchObject({ success: false, message: "host is not allowed" });
      const port = await call<Probe>("POST", "/setup/test-storage", {
        body: { ...storage, endpoint: `${s3Address}:6379`, bucket: "setup-mail" },
      });
      expect(port.body.success).toBe(false);
      expect(port.body.message).toMatch(/^port not allowed/);
    } finally {
      await close(relay);
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("when two completes race, then one creates admin, org, team and domain (assigned to the team) with working tokens (201) and the other is 409; afterwards complete is 409 and the tests 403 whatever the token or body", async () => {
    const domainName = `setup-${randomBytes(3).toString("hex")}.${TRUSTED_DOMAIN}`;
    const body = (email: string) => ({
      setup_token: SETUP_TOKEN,
      admin: { email, password: STRONG_PASSWORD, display_name: "Root" },
      org: { name: "Acme Mail" },
      team: { name: "Operations" },
      domain: { domain_name: domainName },
    });
    // a body that breaks a rule is 400 and creates nothing
    const bad = await call<Envelope>("POST", "/setup/complete", {
      body: { ...body("weak@example.test"), admin: { email: "weak@example.test", password: "short", display_name: "W" } },
    });
    expect(bad.status).toBe(400);
    expect((await call<{ completed: boolean }>("GET", "/setup/status")).body.completed).toBe(false);

    const [a, b] = await Promise.all([
      call<Completed>("POST", "/setup/complete", { body: body("root-a@example.test") }),
      call<Completed>("POST", "/setup/complete", { body: body("root-b@example.test") }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = (a.status === 201 ? a : b).body;
    expect(won.user.is_system_admin).toBe(true);
    expect(won.org.name).toBe("Acme Mail");
    expect(won.team.name).toBe("Operations");
    expect(won.domain).toMatchObject({ domain_name: domainName, status: "verified" });

    // the tokens work: the admin is signed in, owns the org, leads the team, and can refresh
    const token = won.tokens.access_token;
    const me = await call<{ id: string; is_system_admin: boolean }>("GET", "/auth/me", { token });
    expect(me.body).toMatchObject({ id: won.user.id, is_system_admin: true });
    const orgs = await call<{ data: Array<{ id: string; role: string }> }>("GET", "/orgs", { token });
    expect(orgs.body.data).toEqual([expect.objectContaining({ id: won.org.id, role: "owner" })]);
    expect((await call("GET", `/orgs/${won.org.id}/teams/${won.team.id}`, { token })).status).toBe(200);
    expect((await call("GET", `/orgs/${won.org.id}/domains/${won.domain.id}`, { token })).status).toBe(200);
    // the first domain is the first team's, with full access: the owner creates an inbox on it at once
    const assigned = await call<{ data: Array<{ id: string; domain_id: string; access_level: string }> }>(
      "GET",
      `/orgs/${won.org.id}/teams/${won.team.id}/domains`,
      { token },
    );
    expect(assigned.body.data).toEqual([expect.objectContaining({ domain_id: won.domain.id, access_level: "full" })]);
    const inbox = await call("POST", "/inboxes", { token, body: { domain_assignment_id: assigned.body.data[0]!.id, alias: "first" } });
    expect(inbox.status).toBe(201);
    expect((await call("POST", "/auth/refresh", { body: { refresh_token: won.tokens.refresh_token } })).status).toBe(200);
    // the loser's email has no account
    const loser = won.user.email === "root-a@example.test" ? "root-b@example.test" : "root-a@example.test";
    expect((await call("POST", "/auth/login", { body: { email: loser, password: STRONG_PASSWORD } })).status).toBe(401);

    const status = await call<{ completed: boolean; datastores?: unknown }>("GET", "/setup/status");
    expect(status.body).toEqual({ completed: true });
    for (const b2 of [body("again@example.test"), { ...body("again@example.test"), setup_token: "wrong" }, {}, { admin: 1 }]) {
      const again = await call<Envelope>("POST", "/setup/complete", { body: b2 });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("conflict");
    }
    for (const [p, b3] of [
      ["/setup/test-smtp", { setup_token: SETUP_TOKEN, host: "smtp.example.com", port: 587, tls: false }],
      ["/setup/test-storage", { setup_token: SETUP_TOKEN, provider: "local" }],
      ["/setup/test-smtp", {}],
    ] as const) {
      expect((await call("POST", p, { body: b3 })).status).toBe(403);
    }
    // the completion is audited (category admin), without the password
    const audit = await waitFor(
      async () => {
        const res = await call<{ data: Array<{ action: string; category: string; actor_id: string; metadata: Record<string, unknown> }> }>(
          "GET",
          "/admin/audit?action=setup.completed",
          { token },
        );
        return res.body.data?.[0] ?? null;
      },
      { what: "the setup.completed audit entry", timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(audit).toMatchObject({ action: "setup.completed", category: "admin", actor_id: won.user.id });
    expect(JSON.stringify(audit)).not.toContain(STRONG_PASSWORD);
    adminToken = token;
  });

  let adminToken = "";

  it("when every process runs, then admin health is ok for each; when one stops, it is 503 naming it", async () => {
    expect(adminToken).not.toBe("");
    const health = () =>
      call<{ status: string; uptime_s: number; services: Record<string, { status: string; latency_ms: number; error?: string }> }>(
        "GET",
        "/admin/health",
        {
          token: adminToken,
        },
      );
    const ok = await health();
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("ok");
    const names = [
      "api-gateway",
      "identity",
      "tenancy",
      "inbox",
      "inbox-smtp",
      "webhook-dispatcher",
      "realtime-gateway",
      "postgres",
      "redis",
      "nats",
      "storage",
      "mailer",
    ];
    expect(Object.keys(ok.body.services).sort()).toEqual([...names].sort());
    for (const n of names) expect(ok.body.services[n]).toMatchObject({ status: "ok", latency_ms: expect.any(Number) });
    const text = JSON.stringify(ok.body);
    expect(text).not.toMatch(/postgres(ql)?:\/\/|redis:\/\/|nats:\/\/|127\.0\.0\.1/);

    // a normal user of this system is refused
    const user = await registerUser(api, "plain");
    expect((await call("GET", "/admin/health", { token: user.token })).status).toBe(403);

    await system.stopProcess("webhook-dispatcher");
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.status).toBe("degraded");
    expect(down.body.services["webhook-dispatcher"]).toMatchObject({ status: "error", error: "no answer" });
    expect(down.body.services.identity?.status).toBe("ok");
  });
});
