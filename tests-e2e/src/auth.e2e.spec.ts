import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { APP_ORIGIN, SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, newClientIp, registerAdmin, roomInWindow, teamWithDomain } from "./world";

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}
interface AuthBody {
  user: { id: string; email: string };
  tokens: Tokens;
}
interface Conflict {
  error: string;
  code: string;
  pending_token: string;
  sessions: Array<{ id: string }>;
  limit: number;
}

/**
 * Identity as a client sees it through the gateway: sessions, limits, cookie mode, rate limits, secrets.
 * Each test speaks from client IPs of its own (newClientIp), so the per-IP limits of the shared system do not mix.
 */
describe("authentication and sessions through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  const secrets: string[] = [STRONG_PASSWORD];

  const register = async (ip: string, email = `u-${randomBytes(4).toString("hex")}@example.test`) => {
    const r = await api<AuthBody>("POST", "/auth/register", {
      body: { email, password: STRONG_PASSWORD, display_name: "E2E" },
      headers: { "x-forwarded-for": ip },
    });
    expect(r.status).toBe(201);
    secrets.push(r.body.tokens.access_token, r.body.tokens.refresh_token);
    return { email, ...r.body };
  };
  const login = async (email: string, ip: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const r = await api<AuthBody & Conflict>("POST", "/auth/login", {
      body: { email, password: STRONG_PASSWORD, ...extra },
      headers: { "x-forwarded-for": ip, ...headers },
    });
    if (r.status === 200) secrets.push(r.body.tokens.access_token, r.body.tokens.refresh_token);
    if (r.status === 409) secrets.push(r.body.pending_token);
    return r;
  };
  const sidOf = (t: Tokens) =>
    (JSON.parse(Buffer.from(t.access_token.split(".")[1]!, "base64url").toString("utf8")) as { sid: string }).sid;

  it("when the 6th login meets the limit, then 409 session_limit; resolving it stops the revoked session's tokens at once", async () => {
    const ip = newClientIp();
    const { email, tokens: first } = await register(ip);
    for (let i = 0; i < 4; i++) expect((await login(email, ip)).status).toBe(200);
    const sixth = await login(email, ip);
    expect(sixth.status).toBe(409);
    expect(sixth.body).toEqual({
      error: expect.any(String),
      code: "session_limit",
      pending_token: expect.any(String),
      sessions: expect.any(Array),
      limit: 5,
    });
    expect(sixth.body.sessions).toHaveLength(5);
    expect((await api("GET", "/auth/me", { token: first.access_token })).status).toBe(200);

    const pending = await api<{ sessions: unknown[]; limit: number }>(
      "GET",
      `/auth/login/pending-sessions?token=${encodeURIComponent(sixth.body.pending_token)}`,
      {
        headers: { "x-forwarded-for": ip },
      },
    );
    expect(pending.body.sessions).toHaveLength(5);
    const resolved = await api<AuthBody>("POST", "/auth/login/resolve", {
      body: { pending_token: sixth.body.pending_token, revoke_session_id: sidOf(first) },
      headers: { "x-forwarded-for": ip },
    });
    expect(resolved.status).toBe(200);
    secrets.push(resolved.body.tokens.access_token, resolved.body.tokens.refresh_token);
    const refused = await api<{ error: string; code: string }>("GET", "/auth/me", { token: first.access_token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("unauthenticated");
    expect(
      (await api("POST", "/auth/refresh", { body: { refresh_token: first.refresh_token }, headers: { "x-forwarded-for": ip } })).status,
    ).toBe(401);
    expect((await api("GET", "/auth/me", { token: resolved.body.tokens.access_token })).status).toBe(200);
  });

  it("when one pending token is resolved twice at once, then exactly one resolve signs in and only its named session ends", async () => {
    const ip = newClientIp();
    const { email, tokens: first } = await register(ip);
    const others: Tokens[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await login(email, ip);
      expect(r.status).toBe(200);
      others.push(r.body.tokens);
    }
    const sixth = await login(email, ip);
    expect(sixth.status).toBe(409);
    const victims = [first, others[0]!];
    const answers = await Promise.all(
      victims.map((t) =>
        api<AuthBody & { code: string }>("POST", "/auth/login/resolve", {
          body: { pending_token: sixth.body.pending_token, revoke_session_id: sidOf(t) },
          headers: { "x-forwarded-for": ip },
        }),
      ),
    );
    for (const a of answers) if (a.status === 200) secrets.push(a.body.tokens.access_token, a.body.tokens.refresh_token);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.status === 401)?.body.code).toBe("unauthenticated");
    // the losing resolve ended nothing: of the two named sessions, only the winner's is refused
    const still = await Promise.all(victims.map((t) => api("GET", "/auth/me", { token: t.access_token })));
    expect(still.map((s) => s.status).sort()).toEqual([200, 401]);
    expect(still[answers.findIndex((a) => a.status === 200)]!.status).toBe(401);
  });

  it("when a user logs out, then the access token of that session is refused on the next request", async () => {
    const ip = newClientIp();
    const { tokens } = await register(ip);
    expect((await api("GET", "/auth/me", { token: tokens.access_token })).status).toBe(200);
    expect(
      (await api("POST", "/auth/logout", { body: { refresh_token: tokens.refresh_token }, headers: { "x-forwarded-for": ip } })).status,
    ).toBe(200);
    expect((await api("GET", "/auth/me", { token: tokens.access_token })).status).toBe(401);
  });

  it("when a stolen refresh token is replayed, then the whole session is revoked", async () => {
    const ip = newClientIp();
    const { tokens } = await register(ip);
    const next = await api<Tokens>("POST", "/auth/refresh", {
      body: { refresh_token: tokens.refresh_token },
      headers: { "x-forwarded-for": ip },
    });
    expect(next.status).toBe(200);
    secrets.push(next.body.access_token, next.body.refresh_token);
    expect(
      (await api("POST", "/auth/refresh", { body: { refresh_token: tokens.refresh_token }, headers: { "x-forwarded-for": ip } })).status,
    ).toBe(401);
    expect((await api("GET", "/auth/me", { token: next.body.access_token })).status).toBe(401);
  });

  it("delivers the refresh token as a cookie in cookie mode, refreshes from our origin (either loopback spelling in local mode), refuses another naming the origin expected, and logs out from the cookie alone", async () => {
    const ip = newClientIp();
    const { email } = await register(ip);
    const res = await fetch(`${system.gatewayUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: APP_ORIGIN, "x-forwarded-for": ip },
      body: JSON.stringify({ email, password: STRONG_PASSWORD, use_cookie: true }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AuthBody;
    expect(body.tokens.refresh_token).toBe("");
    secrets.push(body.tokens.access_token);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/bb_refresh_token=.+; Max-Age=\d+; Path=\/api\/v1\/auth; .*HttpOnly/);
    const cookie = setCookie.split(";")[0]!;
    secrets.push(cookie.split("=")[1]!);
    const refresh = (origin: string, c: string) =>
      fetch(`${system.gatewayUrl}/api/v1/auth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, cookie: c, "x-forwarded-for": ip },
        body: "{}",
      });
    // a foreign origin: refused, with the origin expected and what to set
    const refused = await refresh("http://evil.e2e.test", cookie);
    expect(refused.status).toBe(403);
    const why = ((await refused.json()) as { error: string }).error;
    expect(why).toContain(`origin http://evil.e2e.test is not allowed: this installation expects ${system.gatewayUrl}`);
    expect(why).toMatch(/BB_BASE_URL.*BB_CORS_ALLOWED_ORIGINS/);
    const refreshed = await refresh(APP_ORIGIN, cookie);
    expect(refreshed.status).toBe(200);
    const tokens = (await refreshed.json()) as Tokens;
    expect(tokens.refresh_token).toBe("");
    secrets.push(tokens.access_token);
    const first = (refreshed.headers.get("set-cookie") ?? "").split(";")[0]!;
    secrets.push(first.split("=")[1]!);
    // local mode, base URL on 127.0.0.1: the other loopback spelling of the same address is the same origin
    const fromLocalhost = await refresh(system.gatewayUrl.replace("127.0.0.1", "localhost"), first);
    expect(fromLocalhost.status).toBe(200);
    secrets.push(((await fromLocalhost.json()) as Tokens).access_token);
    const rotated = (fromLocalhost.headers.get("set-cookie") ?? "").split(";")[0]!;
    secrets.push(rotated.split("=")[1]!);
    const out = await fetch(`${system.gatewayUrl}/api/v1/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: APP_ORIGIN, cookie: rotated, "x-forwarded-for": ip },
      body: "{}",
    });
    expect(out.status).toBe(200);
    expect((await api("GET", "/auth/me", { token: tokens.access_token })).status).toBe(401);
  });

  it("when one IP makes an 11th login within a minute, then 429 with Retry-After and the 7.2 body", async () => {
    const ip = newClientIp();
    const { email } = await register(ip);
    await roomInWindow(60_000, 10_000); // all eleven in one minute window
    for (let i = 0; i < 10; i++) {
      // unknown accounts, so the lockout of one account does not interfere
      const r = await api("POST", "/auth/login", {
        body: { email: `nobody-${i}-${email}`, password: STRONG_PASSWORD },
        headers: { "x-forwarded-for": ip },
      });
      expect(r.status).toBe(401);
    }
    const eleventh = await api<{ error: string; retry_after: number }>("POST", "/auth/login", {
      body: { email, password: STRONG_PASSWORD },
      headers: { "x-forwarded-for": ip },
    });
    expect(eleventh.status).toBe(429);
    expect(Object.keys(eleventh.body).sort()).toEqual(["error", "retry_after"]);
    expect(eleventh.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(eleventh.headers.get("retry-after")).toBe(String(eleventh.body.retry_after));
    expect(eleventh.headers.get("x-ratelimit-remaining")).toBe("0");
    // another IP is not affected
    expect((await login(email, newClientIp())).status).not.toBe(429);
  });

  it("when one IP asks for a 4th password reset within the hour, then 429; the answer never reveals whether the account exists", async () => {
    const ip = newClientIp();
    const { email } = await register(ip);
    const known = await api<{ message: string }>("POST", "/auth/forgot-password", { body: { email }, headers: { "x-forwarded-for": ip } });
    const unknown = await api<{ message: string }>("POST", "/auth/forgot-password", {
      body: { email: `nobody-${email}` },
      headers: { "x-forwarded-for": ip },
    });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect((await api("POST", "/auth/forgot-password", { body: { email }, headers: { "x-forwarded-for": ip } })).status).toBe(200);
    const fourth = await api<{ error: string; retry_after: number }>("POST", "/auth/forgot-password", {
      body: { email },
      headers: { "x-forwarded-for": ip },
    });
    expect(fourth.status).toBe(429);
    // the limit counts in fixed clock hours, so the wait is the rest of this hour (under a minute at hh:59)
    const restOfHour = 3600 - (Math.floor(Date.now() / 1000) % 3600);
    expect(Math.abs(fourth.body.retry_after - restOfHour)).toBeLessThanOrEqual(2);
  });

  it("when the 5th wrong password in a row is followed by a 6th attempt, then 423 with Retry-After", async () => {
    const ip = newClientIp();
    const { email } = await register(ip);
    for (let i = 0; i < 5; i++)
      await api("POST", "/auth/login", { body: { email, password: "Wrong-Password-1" }, headers: { "x-forwarded-for": newClientIp() } });
    const locked = await api<{ code: string }>("POST", "/auth/login", {
      body: { email, password: STRONG_PASSWORD },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe("error");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses API keys on account self-service and lets an admin set the platform session default", async () => {
    const world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "self-service", scopes: ["team.inboxes.view"] },
    });
    secrets.push(key.body.raw_key);
    for (const [method, path, body] of [
      ["PATCH", "/auth/me", { display_name: "x" }],
      ["PUT", "/auth/me/password", { current_password: STRONG_PASSWORD, new_password: "Other-Horse-77" }],
      ["DELETE", "/auth/me", { password: STRONG_PASSWORD }],
      ["GET", "/auth/sessions", undefined],
      ["DELETE", "/auth/sessions", undefined],
    ] as const) {
      const r = await api<{ error: string }>(method, path, { token: key.body.raw_key, ...(body ? { body } : {}) });
      expect([path, r.status, r.body.error]).toEqual([path, 403, "insufficient scope"]);
    }

    const admin = await registerAdmin(api, system);
    const platform = (max: number) =>
      api<{ max_sessions_per_user: number }>("PUT", "/admin/platform", {
        token: admin.token,
        body: { max_sessions_per_user: max },
      });
    // a platform-wide setting on the shared system: put back even when an assertion fails
    try {
      expect((await platform(2)).status).toBe(200);
      const { email } = await register(newClientIp());
      expect((await login(email, newClientIp())).status).toBe(200);
      expect((await login(email, newClientIp())).status).toBe(409);
    } finally {
      expect((await platform(5)).status).toBe(200);
    }
  });

  it("never writes a password, token, refresh token, key or password hash to any service's log", async () => {
    const logs = await system.allLogs();
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of new Set(secrets)) expect(logs.includes(secret)).toBe(false);
    expect(logs).not.toMatch(/\$argon2id\$/);
    expect(logs).not.toMatch(/bb_[0-9a-f]{64}/);
  });
});
