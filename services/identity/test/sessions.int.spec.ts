import { RpcName, redisKeys } from "@burnbox/contracts";
import { randomUUID } from "node:crypto";
import path from "node:path";
import jwt from "jsonwebtoken";
import { SMTPServer } from "smtp-server";
import type { Actor } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, internalHeaders, serviceClient, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import type { IdentityConfig } from "../src/config";
import { PASSWORD, recordAudit, registerUser, startIdentity } from "./support";

interface Tokens {
  access_token: string;
  refresh_token: string;
}
interface AuthBody {
  user: { id: string; email: string };
  tokens: Tokens;
}
interface Conflict {
  error: string;
  code: string;
  pending_token: string;
  sessions: Array<Record<string, unknown>>;
  limit: number;
}

/** A local SMTP sink: identity's outbound mail lands here and tests read the real message. */
async function smtpSink() {
  const messages: Array<{ to: string; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo[0]?.address ?? "", raw: Buffer.concat(chunks).toString("utf8") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.server.address() as { port: number }).port;
  return { messages, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("sessions, limits, passwords and admin controls on real Postgres, Redis and NATS", () => {
  let t: TestService<IdentityConfig, RunningService>;
  let config: IdentityConfig;
  let infra: Infra;
  let service: RunningService;
  let call: TestService<IdentityConfig, RunningService>["call"];
  let logs: LogCapture;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let audit: ReturnType<typeof recordAudit>;
  /** The service's clock runs with real time plus an offset the tests can move. */
  let offset = 0;
  let seq = 0;
  const email = () => `s${++seq}-${t.ns}@example.test`;

  beforeAll(async () => {
    sink = await smtpSink();
    t = await startIdentity(
      {
        defaults: { max_sessions_per_user: 5 },
        mail: { smtp_host: "127.0.0.1", smtp_port: sink.port },
        base_url: "https://burnbox.example.test",
      },
      { now: () => Date.now() + offset },
    );
    ({ config, infra, service, call, logs } = t);
    audit = recordAudit(infra, t.ns);
  });

  afterAll(async () => {
    audit?.stop();
    await t?.stop();
    await sink?.close();
  });

  const register = async (address = email()) => ({ address, ...(await registerUser(call, address)) });
  const login = (address: string, extra: Record<string, unknown> = {}) =>
    call<AuthBody & Conflict>("POST", "/auth/login", { actor: null, body: { email: address, password: PASSWORD, ...extra } });
  const actorOf = (t: Tokens, user: { id: string; email: string }): Actor => ({
    user_id: user.id,
    email: user.email,
    is_system_admin: false,
    session_id: (jwt.decode(t.access_token) as { sid: string }).sid,
    api_key: null,
  });
  const sid = (t: Tokens) => (jwt.decode(t.access_token) as { sid: string }).sid;
  const isRevoked = async (t: Tokens) => (await infra.redis!.exists(redisKeys.revokedSession(config.redis.key_prefix, sid(t)))) === 1;

  it("when the 6th login meets the limit of 5, then 409 session_limit carries a pending token, the 5 sessions (2.6) and the limit", async () => {
    const { address } = await register();
    for (let i = 0; i < 4; i++) expect((await login(address)).status).toBe(200);
    const sixth = await login(address);
    expect(sixth.status).toBe(409);
    expect(Object.keys(sixth.body).sort()).toEqual(["code", "error", "limit", "pending_token", "sessions"]);
    expect(sixth.body.code).toBe("session_limit");
    expect(sixth.body.limit).toBe(5);
    expect(sixth.body.sessions).toHaveLength(5);
    for (const s of sixth.body.sessions)
      expect(Object.keys(s).sort()).toEqual(["created_at", "id", "ip_address", "last_used_at", "user_agent"]);
    // listing does not consume the token
    const listed = await call<{ sessions: unknown[]; limit: number }>(
      "GET",
      `/auth/login/pending-sessions?token=${encodeURIComponent(sixth.body.pending_token)}`,
      { actor: null },
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ limit: 5 });
    expect(listed.body.sessions).toHaveLength(5);
    expect(
      (await call("GET", `/auth/login/pending-sessions?token=${encodeURIComponent(sixth.body.pending_token)}`, { actor: null })).status,
    ).toBe(200);
  });

  it("when the pending login is resolved, then the named session is revoked at once and the normal login body comes back", async () => {
    const { address, tokens: first } = await register();
    for (let i = 0; i < 4; i++) await login(address);
    const conflict = (await login(address)).body;
    const resolved = await call<AuthBody>("POST", "/auth/login/resolve", {
      actor: null,
      body: { pending_token: conflict.pending_token, revoke_session_id: sid(first) },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.tokens.access_token).toBeTruthy();
    expect(await isRevoked(first)).toBe(true);
    expect((await call("POST", "/auth/refresh", { actor: null, body: { refresh_token: first.refresh_token } })).status).toBe(401);
    // the pending token is single use
    expect(
      (
        await call("POST", "/auth/login/resolve", {
          actor: null,
          body: { pending_token: conflict.pending_token, revoke_session_id: sid(resolved.body.tokens) },
        })
      ).status,
    ).toBe(401);
  });

  it("when the limit is still exceeded at resolve (a race), then 409 again with a fresh token and the refreshed list", async () => {
    const { address, user, tokens: first } = await register();
    for (let i = 0; i < 4; i++) await login(address);
    const conflict = (await login(address)).body;
    await service.deps.data.repos.users.update(user.id, { maxSessions: 3 });
    const again = await call<Conflict>("POST", "/auth/login/resolve", {
      actor: null,
      body: { pending_token: conflict.pending_token, revoke_session_id: sid(first) },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("session_limit");
    expect(again.body.pending_token).not.toBe(conflict.pending_token);
    expect(again.body.limit).toBe(3);
    expect(again.body.sessions).toHaveLength(4);
    expect(again.body.sessions.map((s) => s.id)).not.toContain(sid(first));
  });

  it("when 5 minutes pass, then the pending token has expired", async () => {
    const { address } = await register();
    for (let i = 0; i < 4; i++) await login(address);
    const conflict = (await login(address)).body;
    offset += 4 * 60_000 + 50_000;
    expect(
      (await call("GET", `/auth/login/pending-sessions?token=${encodeURIComponent(conflict.pending_token)}`, { actor: null })).status,
    ).toBe(200);
    offset += 11_000;
    const expired = await call<{ code: string }>(
      "GET",
      `/auth/login/pending-sessions?token=${encodeURIComponent(conflict.pending_token)}`,
      { actor: null },
    );
    expect(expired.status).toBe(401);
    offset = 0;
  });

  it("when two logins race at limit-1, then exactly one gets a session", async () => {
    const { address } = await register();
    for (let i = 0; i < 3; i++) await login(address);
    const [a, b] = await Promise.all([login(address), login(address)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it("when the pending-login store (Redis) is really down, then login revokes the oldest session instead", async () => {
    // a second identity on the same database whose Redis is a closed port
    const cfg: IdentityConfig = { ...config, redis: { ...config.redis, url: "redis://127.0.0.1:1" } };
    const downInfra = await startInfra({
      config: cfg,
      redis: true,
      database: { url: t.dbUrl, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
      logDestination: new LogCapture(),
    });
    const down = await startService(cfg, downInfra);
    try {
      const viaDown = serviceClient(`http://127.0.0.1:${down.port}`);
      const { address, tokens: oldest } = await register();
      for (let i = 0; i < 4; i++) await login(address);
      const res = await viaDown<AuthBody>("POST", "/auth/login", { actor: null, body: { email: address, password: PASSWORD } });
      expect(res.status).toBe(200);
      expect((await call("POST", "/auth/refresh", { actor: null, body: { refresh_token: oldest.refresh_token } })).status).toBe(401);
      const active = await infra.pool!.query(
        "SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.revoked_at IS NULL",
        [address],
      );
      expect(active.rowCount).toBe(5);
    } finally {
      await down.stop();
      await downInfra.close();
    }
  });

  it("lists the caller's sessions with current, revokes one or all others, and logout is idempotent", async () => {
    const { address, user, tokens: a } = await register();
    const b = (await login(address)).body.tokens;
    const c = (await login(address)).body.tokens;
    const me = actorOf(a, user);
    const list = await call<{ data: Array<{ id: string; current: boolean }>; total: number }>("GET", "/auth/sessions", { actor: me });
    expect(list.body.total).toBe(3);
    expect(list.body.data.find((s) => s.current)?.id).toBe(sid(a));
    expect((await call("DELETE", `/auth/sessions/${sid(b)}`, { actor: me })).status).toBe(200);
    expect(await isRevoked(b)).toBe(true);
    expect((await call("DELETE", `/auth/sessions/${randomUUID()}`, { actor: me })).status).toBe(404);
    expect((await call("DELETE", "/auth/sessions", { actor: me })).status).toBe(200);
    expect(await isRevoked(c)).toBe(true);
    expect(await isRevoked(a)).toBe(false);
    expect((await call("POST", "/auth/logout", { actor: null, body: { refresh_token: a.refresh_token } })).status).toBe(200);
    expect(await isRevoked(a)).toBe(true);
    expect((await call("POST", "/auth/logout", { actor: null, body: { refresh_token: a.refresh_token } })).status).toBe(200);
    expect(await audit.next("user.session_revoked", user.id)).toMatchObject({
      actor_user_id: user.id,
      metadata: { session_ids: [sid(b)] },
    });
    expect(await audit.next("user.logout", user.id)).toMatchObject({ actor_user_id: user.id, metadata: { session_id: sid(a) } });
  });

  it("when Redis lost the revocation list, then identity puts the revoked sessions back and marks the list complete", async () => {
    const { address, user, tokens: a } = await register();
    const b = (await login(address)).body.tokens;
    expect((await call("DELETE", `/auth/sessions/${sid(b)}`, { actor: actorOf(a, user) })).status).toBe(200);
    const prefix = config.redis.key_prefix;
    const seeded = redisKeys.revocationsSeeded(prefix);
    await service.workers.revocationSeed.runNow();
    expect(await infra.redis!.exists(seeded)).toBe(1);

    // while the list is marked complete, seeding leaves it alone
    await infra.redis!.del(redisKeys.revokedSession(prefix, sid(b)));
    await service.workers.revocationSeed.runNow();
    expect(await isRevoked(b)).toBe(false);

    // Redis restarted empty: the mark is gone too
    await infra.redis!.del(seeded);
    await service.workers.revocationSeed.runNow();
    expect(await isRevoked(b)).toBe(true);
    expect(await isRevoked(a)).toBe(false);
    const ttl = await infra.redis!.pttl(redisKeys.revokedSession(prefix, sid(b)));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual((900 + 60) * 1000);
    expect(await infra.redis!.exists(seeded)).toBe(1);
  });

  it("when the gateway asks whether a session is revoked, then identity answers from Postgres", async () => {
    const { address, user, tokens: a } = await register();
    const b = (await login(address)).body.tokens;
    await call("DELETE", `/auth/sessions/${sid(b)}`, { actor: actorOf(a, user) });
    const status = async (session_id: string) => (await rpcRequest(infra.nc, t.ns, RpcName.sessionStatus, { session_id })).revoked;
    expect(await status(sid(a))).toBe(false);
    expect(await status(sid(b))).toBe(true);
    // an unknown session (its user was deleted) is refused too
    expect(await status(randomUUID())).toBe(true);
    expect(await status("not-a-session-id")).toBe(true);
  });

  it("changes the password (other sessions end), resets it by mail (all sessions end) and verifies the email", async () => {
    const { address, user, tokens: a } = await register();
    const b = (await login(address)).body.tokens;
    const verifyMail = await waitFor(() => sink.messages.find((m) => m.to === address && /verify-email/.test(m.raw)), {
      what: "verification mail",
    });
    const verifyToken = /verify-email\/([A-Za-z0-9_-]+)/.exec(verifyMail.raw.replace(/=\r?\n/g, ""))?.[1];
    expect((await call("GET", `/auth/verify-email/${verifyToken}`, { actor: null })).status).toBe(200);
    expect((await call("GET", `/auth/verify-email/${verifyToken}`, { actor: null })).status).toBe(400);
    expect((await service.deps.data.repos.users.get(user.id))?.email_verified).toBe(true);

    const me = actorOf(a, user);
    expect(
      (await call("PUT", "/auth/me/password", { actor: me, body: { current_password: "Wrong-1-pass", new_password: "Another-Horse-7" } }))
        .status,
    ).toBe(400);
    expect((await call("PUT", "/auth/me/password", { actor: me, body: { current_password: PASSWORD, new_password: "weak" } })).status).toBe(
      400,
    );
    expect(
      (await call("PUT", "/auth/me/password", { actor: me, body: { current_password: PASSWORD, new_password: "Another-Horse-7" } })).status,
    ).toBe(200);
    expect(await isRevoked(b)).toBe(true);
    expect(await isRevoked(a)).toBe(false);

    const nobody = `nobody-${t.ns}@example.test`;
    const unknown = await call<{ message: string }>("POST", "/auth/forgot-password", { actor: null, body: { email: nobody } });
    const forgot = await call<{ message: string }>("POST", "/auth/forgot-password", { actor: null, body: { email: address } });
    expect(forgot.status).toBe(200);
    expect(unknown.body).toEqual(forgot.body);
    const resetMail = await waitFor(() => sink.messages.find((m) => m.to === address && /reset-password\?token=/.test(m.raw)), {
      what: "reset mail",
    });
    // the mail to the real account was asked for after the unknown one: no mail went to the unknown address
    expect(sink.messages.filter((m) => m.to === nobody)).toEqual([]);
    const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "="))?.[1];
    expect(resetMail.raw).toContain("https://burnbox.example.test/reset-password");
    expect(
      (await call("POST", "/auth/reset-password", { actor: null, body: { token: resetToken, new_password: "Third-Horse-55" } })).status,
    ).toBe(200);
    expect(await isRevoked(a)).toBe(true);
    expect(
      (await call("POST", "/auth/reset-password", { actor: null, body: { token: resetToken, new_password: "Fourth-Horse-55" } })).status,
    ).toBe(400);
    expect((await call("POST", "/auth/login", { actor: null, body: { email: address, password: "Third-Horse-55" } })).status).toBe(200);
  });

  it("sets the refresh token as an httpOnly cookie in cookie mode, refreshes and logs out from it, and checks Origin", async () => {
    const { address } = await register();
    const res = await fetch(`http://127.0.0.1:${service.port}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://burnbox.example.test", ...internal() },
      body: JSON.stringify({ email: address, password: PASSWORD, use_cookie: true }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AuthBody;
    expect(body.tokens.refresh_token).toBe("");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^bb_refresh_token=[^;]+;/);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const pairCookie = cookie.split(";")[0]!;
    const refresh = (origin: string) =>
      fetch(`http://127.0.0.1:${service.port}/api/v1/auth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: pairCookie, origin, ...internal() },
        body: "{}",
      });
    expect((await refresh("https://evil.example")).status).toBe(403);
    const ok = await refresh("https://burnbox.example.test");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Tokens).refresh_token).toBe("");
    const rotated = (ok.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(rotated).not.toBe(pairCookie);
    const out = await fetch(`http://127.0.0.1:${service.port}/api/v1/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: rotated, origin: "https://burnbox.example.test", ...internal() },
      body: "{}",
    });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/bb_refresh_token=;/);
  });

  it("lets a system admin cap one user's sessions, set the platform default, revoke sessions, migrate auth and delete", async () => {
    const admin: Actor = { user_id: randomUUID(), email: "root@example.test", is_system_admin: true, session_id: null, api_key: null };
    const { address, user, tokens } = await register();
    // q finds a user by a part of the email, whatever its case, and leaves the others out
    const part = address.split("@")[0]!.toUpperCase();
    const found = await call<{ data: Array<{ id: string }>; total: number }>("GET", `/admin/users?q=${encodeURIComponent(part)}`, {
      actor: admin,
    });
    expect(found.body).toMatchObject({ total: 1, data: [{ id: user.id }] });
    const none = await call<{ total: number }>("GET", `/admin/users?q=no-such-${randomUUID()}`, { actor: admin });
    expect(none.body.total).toBe(0);
    const patched = await call<{ max_sessions: number }>("PATCH", `/admin/users/${user.id}`, { actor: admin, body: { max_sessions: 1 } });
    expect(patched.body.max_sessions).toBe(1);
    expect(await audit.next("admin.user_updated", user.id)).toMatchObject({
      actor_user_id: admin.user_id,
      target_type: "user",
      metadata: { fields: ["max_sessions"] },
    });
    expect((await login(address)).status).toBe(409);
    await call("PATCH", `/admin/users/${user.id}`, { actor: admin, body: { max_sessions: null } });

    // the platform view carries demo_enabled, which the inbox service knows: a stand-in answers for it
    const inbox = serveRpc(infra.nc, t.ns, RpcName.demoConfig, () => Promise.resolve({ enabled: false }), infra.logger);
    const platform = await call<{ max_sessions_per_user: number }>("PUT", "/admin/platform", {
      actor: admin,
      body: { max_sessions_per_user: 2 },
    });
    expect(platform.body.max_sessions_per_user).toBe(2);
    expect((await login(address)).status).toBe(200);
    expect((await login(address)).status).toBe(409);
    await call("PUT", "/admin/platform", { actor: admin, body: { max_sessions_per_user: 5 } });
    await inbox.stop();

    expect((await call("DELETE", `/admin/users/${user.id}/sessions`, { actor: admin })).status).toBe(204);
    expect(await isRevoked(tokens)).toBe(true);
    const migrated = await call<{ sso_provider: string }>("POST", `/admin/users/${user.id}/migrate-auth`, {
      actor: admin,
      body: { to: "sso", provider: "okta" },
    });
    expect(migrated.body.sso_provider).toBe("okta");
    expect((await login(address)).status).toBe(401);
    expect((await call("DELETE", `/admin/users/${user.id}`, { actor: admin })).status).toBe(200);
    expect((await call("GET", `/admin/users/${user.id}`, { actor: admin })).status).toBe(404);
    const notAdmin = { ...admin, is_system_admin: false };
    expect((await call("GET", "/admin/users", { actor: notAdmin })).status).toBe(403);
  });

  it("exposes the password policy and date-time settings, and updates the profile", async () => {
    const status = await call<{ password_policy: Record<string, unknown>; enabled: boolean }>("GET", "/auth/sso-status", { actor: null });
    expect(status.body).toMatchObject({
      enabled: false,
      password_policy: { min_length: 8, require_uppercase: true, require_symbol: true },
    });
    const { user, tokens } = await register();
    const me = actorOf(tokens, user);
    expect((await call("GET", "/auth/datetime-settings", { actor: me })).body).toEqual({
      timezone: "UTC",
      date_format: "YYYY-MM-DD",
      time_format: "24h",
    });
    expect((await call("PATCH", "/auth/me", { actor: me, body: { timezone: "Mars/Olympus" } })).status).toBe(400);
    const updated = await call<{ timezone: string; display_name: string }>("PATCH", "/auth/me", {
      actor: me,
      body: { timezone: "Europe/Paris", display_name: "New" },
    });
    expect(updated.body).toMatchObject({ timezone: "Europe/Paris", display_name: "New" });
    expect((await call<{ timezone: string }>("GET", "/auth/datetime-settings", { actor: me })).body.timezone).toBe("Europe/Paris");
    expect((await call("DELETE", "/auth/me", { actor: me, body: { password: "Wrong-pass-1" } })).status).toBe(400);
    expect((await call("DELETE", "/auth/me", { actor: me, body: { password: PASSWORD } })).status).toBe(200);
    expect(await isRevoked(tokens)).toBe(true);
  });

  it("never logs a password, token or hash", () => {
    const text = logs.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/\$argon2id\$/);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  });

  const internal = (): Record<string, string> => internalHeaders(null);
});
