/// <reference types="@burnbox/test-kit/src/s3rver" />
import { randomBytes, randomInt } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import S3rver from "s3rver";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { close, intakeRelay, listen } from "./relays";
import { apiClient, sendMail } from "./clients";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { createInbox, newClientIp, registerAdmin, registerUser, teamWithDomain } from "./world";

interface Envelope {
  error: string;
  code: string;
}
interface TestResult {
  success: boolean;
  message: string;
  response_time_ms: number;
}
interface Platform {
  max_sessions_per_user: number;
  allow_registration: boolean;
  demo_enabled: boolean | null;
  default_inbox_ttl: string;
  max_inbox_ttl: string;
}

/** A loopback address of this run in the range the shared system's tenancy lets its infra tests reach (127.77.0.0/16). */
const targetAddress = () => `127.77.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/**
 * A mail server that asks for AUTH PLAIN (the intake offers none): it records the credentials it
 * is given and accepts only `user`/`password`.
 */
async function authServer(address: string, user: string, password: string): Promise<{ server: net.Server; seen: string[] }> {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    socket.write("220 fake.test ESMTP\r\n");
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      let i: number;
      while ((i = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (/^EHLO /i.test(line)) socket.write("250-fake.test\r\n250 AUTH PLAIN\r\n");
        else if (/^AUTH PLAIN /i.test(line)) {
          const [, u, p] = Buffer.from(line.slice(11), "base64").toString("utf8").split("\0");
          seen.push(`${u}:${p}`);
          socket.write(u === user && p === password ? "235 ok\r\n" : "535 no\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("502 unknown\r\n");
      }
    });
    socket.on("error", () => socket.destroy());
  });
  await listen(server, address, 2525);
  return { server, seen };
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Platform configuration (contract notes, "Admin and platform"): mailer, storage, infra tests, platform settings. */
describe("platform configuration by system admins", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let admin: { token: string };
  let adminKey: string;
  let user: { token: string };
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const servers: net.Server[] = [];
  let dns: Awaited<ReturnType<typeof testDns>>;

  beforeAll(async () => {
    dns = await testDns(system.ports.dns);
    admin = await registerAdmin(api, system);
    user = await registerUser(api, "plain");
    world = await teamWithDomain(api);
    const org = await api<{ id: string }>("POST", "/orgs", { token: admin.token, body: { name: "Admin org" } });
    const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token: admin.token, body: { name: "Ops" } });
    const key = await api<{ raw_key: string }>("POST", `/orgs/${org.body.id}/teams/${team.body.id}/api-keys`, {
      token: admin.token,
      body: { name: "admin key", scopes: ["team.view"] },
    });
    if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
    adminKey = key.body.raw_key;
  });

  afterAll(async () => {
    // the shared system goes on as it was: demo and TTLs from configuration, registration open, local storage
    await api("PUT", "/admin/platform", {
      token: admin.token,
      body: { demo_enabled: null, allow_registration: true, default_inbox_ttl: "10m", max_inbox_ttl: "24h" },
    });
    await api("PUT", "/admin/config/storage", { token: admin.token, body: { provider: "local" } });
    // account mail keeps going to the system's own intake, from the configured default sender
    await api("PUT", "/admin/config/mailer", {
      token: admin.token,
      body: { host: "127.0.0.1", port: system.ports.smtp, from: "BurnBox <no-reply@burnbox.local>", tls: false },
    });
    await Promise.all(servers.map(close));
    await dns?.close();
  });

  const adminOnly = [
    ["GET", "/admin/config/mailer", undefined],
    ["PUT", "/admin/config/mailer", { host: "smtp.example.com", port: 587, from: "a@example.com", tls: true, password: "x" }],
    ["GET", "/admin/config/storage", undefined],
    ["PUT", "/admin/config/storage", { provider: "local" }],
    ["POST", "/admin/infra/test-smtp", undefined],
    ["POST", "/admin/infra/test-storage", undefined],
    ["GET", "/admin/platform", undefined],
    ["PUT", "/admin/platform", { demo_enabled: false }],
  ] as const;

  it("when a normal user or an admin's API key calls any of these admin routes, then it is 403 forbidden and nothing changes", async () => {
    const before = await api("GET", "/admin/platform", { token: admin.token });
    for (const [method, route, body] of adminOnly) {
      for (const token of [user.token, adminKey]) {
        const res = await api<Envelope>(method, route, { token, ...(body ? { body } : {}) });
        expect({ route, token: token === adminKey ? "key" : "user", status: res.status, code: res.body.code }).toEqual({
          route,
          token: token === adminKey ? "key" : "user",
          status: 403,
          code: "forbidden",
        });
      }
      expect((await api(method, route, body ? { body } : {})).status).toBe(401);
    }
    expect((await api("GET", "/admin/platform", { token: admin.token })).body).toEqual(before.body);
  });

  it("when a mailer password is saved, then GET shows has_password only, the row holds it sealed, and the mail test uses the saved mailer against the system's own intake", async () => {
    const password = `pw-${randomBytes(8).toString("hex")}`;
    const relayAddress = targetAddress();
    servers.push(await intakeRelay(relayAddress, system.ports.smtp));
    const mailer = { host: relayAddress, port: 2525, username: "", from: "BurnBox <no-reply@e2e.test>", tls: false };
    const put = await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...mailer, password } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...mailer, has_password: true });
    const get = await api("GET", "/admin/config/mailer", { token: admin.token });
    expect(get.body).toEqual({ ...mailer, has_password: true });
    expect(JSON.stringify(get.body)).not.toContain(password);

    const db = new Client({ connectionString: testDatabaseUrl(`${system.namespace}_tenancy`) });
    await db.connect();
    try {
      const { rows } = await db.query<{ value: unknown; secret_sealed: string }>(
        "SELECT value, secret_sealed FROM platform_config WHERE key = 'mailer'",
      );
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(password);
      expect(rows[0]?.secret_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    } finally {
      await db.end();
    }

    const test = await api<TestResult>("POST", "/admin/infra/test-smtp", { token: admin.token });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ success: true, message: "SMTP connection successful", response_time_ms: expect.any(Number) });

    // the change is audited under admin, without the password
    const entries = await waitFor(
      async () => {
        const res = await api<{ data: Array<{ action: string; category: string; resource_id: string | null }> }>(
          "GET",
          "/admin/audit?action=admin.mailer_config_updated&per_page=100",
          { token: admin.token },
        );
        return res.status === 200 && res.body.data.length > 0 ? res.body.data : null;
      },
      { what: "the mailer change in the audit log" },
    );
    expect(entries[0]).toMatchObject({ action: "admin.mailer_config_updated", category: "admin", resource_id: "mailer" });
    expect(JSON.stringify(entries)).not.toContain(password);
  });

  it("when the saved mailer authenticates, then the mail test uses the stored password; a wrong one fails", async () => {
    const address = targetAddress();
    const password = `pw-${randomBytes(8).toString("hex")}`;
    const auth = await authServer(address, "mailer", password);
    servers.push(auth.server);
    const mailer = { host: address, port: 2525, username: "mailer", from: "BurnBox <no-reply@e2e.test>", tls: false };
    await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...mailer, password } });
    const ok = await api<TestResult>("POST", "/admin/infra/test-smtp", { token: admin.token });
    expect(ok.body).toMatchObject({ success: true, message: "SMTP connection and authentication successful" });
    // an empty password keeps the stored one
    await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...mailer, password: "" } });
    expect((await api<TestResult>("POST", "/admin/infra/test-smtp", { token: admin.token })).body.success).toBe(true);
    expect(auth.seen).toEqual([`mailer:${password}`, `mailer:${password}`]);
    await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...mailer, password: "not-it" } });
    const wrong = await api<TestResult>("POST", "/admin/infra/test-smtp", { token: admin.token });
    expect(wrong.body).toMatchObject({ success: false, message: "authentication failed" });
    // null clears it
    const cleared = await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...mailer, password: null } });
    expect(cleared.body).toMatchObject({ has_password: false });
  });

  it("when the mailer is saved under a name, then identity resolves it through dns.servers and its account mail goes to the checked address at once", async () => {
    // a name only the test's DNS knows, pointing at a relay to the system's own intake on an allowed address
    const relayAddress = targetAddress();
    servers.push(await intakeRelay(relayAddress, system.ports.smtp));
    const host = `mail-${randomBytes(3).toString("hex")}.mailer-e2e.example`;
    dns.zones.set(host, { a: [relayAddress] });
    const put = await api("PUT", "/admin/config/mailer", {
      token: admin.token,
      body: { host, port: 2525, from: "BurnBox <no-reply@e2e.test>", tls: false },
    });
    expect(put.status).toBe(200);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `acct-${randomBytes(3).toString("hex")}`);
    const account = await api("POST", "/auth/register", {
      body: { email: inbox.full_address, password: "Correct-Horse-9-Battery", display_name: "Mail reader" },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(account.status).toBe(201);
    // the change reaches identity by an event: ask for reset mail until one arrives
    const subjects = await waitFor(
      async () => {
        await api("POST", "/auth/forgot-password", { body: { email: inbox.full_address }, headers: { "x-forwarded-for": newClientIp() } });
        const mails = await api<{ data: Array<{ subject: string; from_address: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
          token: world.owner.token,
        });
        return mails.body.data.length > 0 ? mails.body.data : null;
      },
      { what: "account mail in the inbox", timeoutMs: 15_000, intervalMs: 500 },
    );
    expect(subjects[0]?.from_address).toContain("no-reply@e2e.test");
  });

  it("when a mailer the SMTP probe would refuse is PUT, then it is a 400 and nothing is saved (address and port rules)", async () => {
    const privateName = `smtp-${randomBytes(3).toString("hex")}.mailer-e2e.example`;
    dns.zones.set(privateName, { a: ["10.20.30.40"] });
    const before = await api("GET", "/admin/config/mailer", { token: admin.token });
    for (const [host, port] of [
      ["127.0.0.1", 6390],
      ["127.0.0.1", 587],
      ["fec0::1", 587],
      ["5f00::1", 25],
      [privateName, 587],
      [targetAddress(), 6390],
    ] as const) {
      const res = await api<Envelope>("PUT", "/admin/config/mailer", {
        token: admin.token,
        body: { host, port, from: "BurnBox <no-reply@e2e.test>", tls: false },
      });
      expect([host, port, res.status, res.body.code]).toEqual([host, port, 400, "validation_error"]);
    }
    expect((await api("GET", "/admin/config/mailer", { token: admin.token })).body).toEqual(before.body);
  });

  it("when GET /admin/config/mailer is PUT back as it is, then it succeeds: the configured mailer while none is saved, and a saved one", async () => {
    // back to the configuration (mail.*: the system's own intake): GET shows it, and it round-trips
    const configured = { host: "127.0.0.1", port: system.ports.smtp, username: "", from: "BurnBox <no-reply@burnbox.local>", tls: false };
    expect((await api("PUT", "/admin/config/mailer", { token: admin.token, body: configured })).status).toBe(200);
    // nothing is saved then (an installation that never saved one is in this state): GET shows mail.* itself
    const db = new Client({ connectionString: testDatabaseUrl(`${system.namespace}_tenancy`) });
    await db.connect();
    try {
      expect((await db.query("SELECT key FROM platform_config WHERE key = 'mailer'")).rows).toEqual([]);
    } finally {
      await db.end();
    }
    const shown = await api<Record<string, unknown>>("GET", "/admin/config/mailer", { token: admin.token });
    expect(shown.body).toEqual({ ...configured, has_password: false });
    const again = await api("PUT", "/admin/config/mailer", { token: admin.token, body: shown.body });
    expect(again.status).toBe(200);
    expect((await api("GET", "/admin/config/mailer", { token: admin.token })).body).toEqual(shown.body);

    // a saved mailer with a password: GET then PUT of the same body keeps the password ("" and absent alike)
    const address = targetAddress();
    const saved = { host: address, port: 2525, username: "ops", from: "Ops <ops@e2e.test>", tls: false };
    expect((await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...saved, password: "pw-1" } })).status).toBe(200);
    const read = await api<Record<string, unknown>>("GET", "/admin/config/mailer", { token: admin.token });
    expect(read.body).toEqual({ ...saved, has_password: true });
    const back = await api("PUT", "/admin/config/mailer", { token: admin.token, body: { ...read.body, password: "" } });
    expect([back.status, back.body]).toEqual([200, { ...saved, has_password: true }]);
    const asIs = await api("PUT", "/admin/config/mailer", { token: admin.token, body: read.body });
    expect([asIs.status, asIs.body]).toEqual([200, { ...saved, has_password: true }]);
    await api("PUT", "/admin/config/mailer", { token: admin.token, body: configured });
  });

  it("when S3 storage is saved, then it is checked first, and new mail's bytes land in that server and are served from it", async () => {
    const address = targetAddress();
    const bucket = `bb-${randomBytes(4).toString("hex")}`;
    const directory = await mkdtemp(path.join(tmpdir(), "bb-e2e-s3-"));
    const s3 = new S3rver({ address, port: 9000, silent: true, directory, configureBuckets: [{ name: bucket }] });
    await s3.run();
    try {
      const storage = { provider: "s3", endpoint: `${address}:9000`, bucket, region: "us-east-1", access_key: "S3RVER", use_ssl: false };
      // (s3rver knows one access key and does not check SigV4 signatures: an unknown key is what it refuses)
      const refused = await api<Envelope>("PUT", "/admin/config/storage", {
        token: admin.token,
        body: { ...storage, access_key: "UNKNOWN", secret_key: "S3RVER" },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: "storage check failed: access denied: check the access key and secret key",
        code: "validation_error",
      });

      const put = await api("PUT", "/admin/config/storage", { token: admin.token, body: { ...storage, secret_key: "S3RVER" } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...storage, has_secret_key: true });
      expect((await api("GET", "/admin/config/storage", { token: admin.token })).body).toEqual({ ...storage, has_secret_key: true });
      const test = await api<TestResult>("POST", "/admin/infra/test-storage", { token: admin.token });
      expect(test.body).toMatchObject({ success: true, message: "storage connection successful" });

      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `s3-${randomBytes(3).toString("hex")}`);
      // the switch reaches the intake and the inbox API by an event: mail until one lands in S3
      const landed = await waitFor(
        async () => {
          const subject = `s3 ${randomBytes(3).toString("hex")}`;
          const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "to s3" });
          if (sent.data?.code !== 250) return null;
          const email = await waitFor(
            async () => {
              const list = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
                token: world.owner.token,
              });
              return list.body.data.find((e) => e.subject === subject) ?? null;
            },
            { what: "the mail listed" },
          );
          const files = await filesUnder(directory);
          return files.some((f) => f.includes(email.id)) ? { email, subject } : null;
        },
        { what: "a mail stored in S3", timeoutMs: 20_000, intervalMs: 200 },
      );
      const raw = await fetch(`${system.gatewayUrl}/api/v1/emails/${landed.email.id}/raw`, {
        headers: { authorization: `Bearer ${world.owner.token}` },
        redirect: "manual",
      });
      expect(raw.status).toBe(302);
      const location = raw.headers.get("location") ?? "";
      expect(location.startsWith(`http://${address}:9000/${bucket}/`)).toBe(true);
      const bytes = await (await fetch(location)).text();
      expect(bytes).toContain(`Subject: ${landed.subject}`);
    } finally {
      const local = await api("PUT", "/admin/config/storage", { token: admin.token, body: { provider: "local" } });
      expect(local.body).toEqual({ provider: "local", has_secret_key: false });
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("when platform settings are PUT, then only the named ones change, and a new inbox's default TTL follows them", async () => {
    const before = (await api<Platform>("GET", "/admin/platform", { token: admin.token })).body;
    const first = await api<Platform>("PUT", "/admin/platform", { token: admin.token, body: { default_inbox_ttl: "7m" } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...before, default_inbox_ttl: "7m" });
    const second = await api<Platform>("PUT", "/admin/platform", { token: admin.token, body: { max_inbox_ttl: "2h" } });
    expect(second.body).toEqual({ ...before, default_inbox_ttl: "7m", max_inbox_ttl: "2h" });
    expect((await api("GET", "/admin/platform", { token: admin.token })).body).toEqual(second.body);
    const refused = await api<Envelope>("PUT", "/admin/platform", { token: admin.token, body: { default_inbox_ttl: "3h" } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_error");

    // a new org has set no TTL of its own: its inboxes follow the platform (applied by an event)
    const fresh = await teamWithDomain(api);
    const ttl = await waitFor(
      async () => {
        const inbox = await api<{ created_at: string; expires_at: string }>("POST", "/inboxes", {
          token: fresh.owner.token,
          body: { domain_assignment_id: fresh.assignmentId },
        });
        const ms = Date.parse(inbox.body.expires_at) - Date.parse(inbox.body.created_at);
        return ms === 7 * 60_000 ? ms : null;
      },
      { what: "the platform's default TTL applied", timeoutMs: 10_000, intervalMs: 300 },
    );
    expect(ttl).toBe(420_000);
    const tooLong = await api<Envelope>("POST", "/inboxes", {
      token: fresh.owner.token,
      body: { domain_assignment_id: fresh.assignmentId, ttl: "3h" },
    });
    expect(tooLong.status).toBe(400);
  });

  it("when demo_enabled is false, then the demo is off (status false, creation 404), and null hands it back to the configuration", async () => {
    const ip = newClientIp();
    const off = await api<Platform>("PUT", "/admin/platform", { token: admin.token, body: { demo_enabled: false } });
    expect(off.body.demo_enabled).toBe(false);
    await waitFor(async () => (await api("GET", "/try/status", { headers: { "x-forwarded-for": ip } })).body?.enabled === false, {
      what: "the demo off",
      timeoutMs: 10_000,
    });
    const create = await api<Envelope>("POST", "/try/inbox", { headers: { "x-forwarded-for": ip } });
    expect(create.status).toBe(404);
    expect(create.body.code).toBe("not_found");
    await api("PUT", "/admin/platform", { token: admin.token, body: { demo_enabled: null } });
    await waitFor(async () => (await api("GET", "/try/status", { headers: { "x-forwarded-for": ip } })).body?.enabled === true, {
      what: "the demo back on",
      timeoutMs: 10_000,
    });
  });

  it("when allow_registration is false, then registering is 403 until it is true again", async () => {
    await api("PUT", "/admin/platform", { token: admin.token, body: { allow_registration: false } });
    try {
      const res = await api<Envelope>("POST", "/auth/register", {
        body: { email: `closed-${randomBytes(4).toString("hex")}@example.test`, password: "Correct-Horse-9-Battery", display_name: "Late" },
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "registration is disabled", code: "forbidden" });
    } finally {
      await api("PUT", "/admin/platform", { token: admin.token, body: { allow_registration: true } });
    }
    await expect(registerUser(api, "reopened")).resolves.toMatchObject({ token: expect.any(String) });
  });
});
