import { redisKeys } from "@burnbox/contracts";
import type { Infra } from "@burnbox/service-kit/runtime";
import { TEST_JWT_SECRET, type LogCapture, type TestService } from "@burnbox/test-kit";
import jwt from "jsonwebtoken";
import type { RunningService } from "../src/app";
import type { IdentityConfig } from "../src/config";
import { PASSWORD, recordAudit, registerUser as register, startIdentity } from "./support";

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

describe("identity on real Postgres, Redis and NATS", () => {
  let t: TestService<IdentityConfig, RunningService>;
  let config: IdentityConfig;
  let infra: Infra;
  let call: TestService<IdentityConfig, RunningService>["call"];
  let logs: LogCapture;
  let audit: ReturnType<typeof recordAudit>;
  let seq = 0;
  const email = () => `u${++seq}-${t.ns}@example.test`;

  beforeAll(async () => {
    t = await startIdentity({ defaults: { max_sessions_per_user: 2 } });
    ({ config, infra, call, logs } = t);
    audit = recordAudit(infra, t.ns);
  });

  afterAll(async () => {
    audit?.stop();
    await t?.stop();
  });

  const registerUser = (address = email()) => register(call, address);

  it("when a user registers, then they get the user record and a token pair with the contract's claims", async () => {
    const address = email();
    const { user, tokens } = await registerUser(address.toUpperCase());
    expect(user).toMatchObject({ email: address.toLowerCase(), display_name: "Tess", is_system_admin: false, email_verified: false });
    expect(tokens.expires_in).toBe(900);
    const claims = jwt.verify(tokens.access_token, TEST_JWT_SECRET) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: user.id, email: address.toLowerCase(), is_system_admin: false });
    expect(Object.keys(claims).sort()).toEqual(["email", "exp", "iat", "is_system_admin", "jti", "sid", "sub"]);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
  });

  it("when an email is registered twice or the password is weak, then the answer is a generic 400", async () => {
    const { email: taken } = await registerUser();
    const dup = await call<{ error: string; code: string }>("POST", "/auth/register", {
      actor: null,
      body: { email: taken, password: PASSWORD, display_name: "x" },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("validation_error");
    expect(dup.body.error).not.toContain(taken);
    const weak = await call<{ error: string }>("POST", "/auth/register", {
      actor: null,
      body: { email: email(), password: "password", display_name: "x" },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toMatch(/uppercase/);
  });

  it("when the password is wrong, then 401 with the same message as an unknown email; after 5 failures the account is locked (423, Retry-After)", async () => {
    const { email: address } = await registerUser();
    const unknown = await call<{ error: string; code: string }>("POST", "/auth/login", {
      actor: null,
      body: { email: email(), password: PASSWORD },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: "invalid email or password", code: "unauthenticated" });
    for (let i = 0; i < 5; i++) {
      const wrong = await call<{ error: string }>("POST", "/auth/login", {
        actor: null,
        body: { email: address, password: "Wrong-password-1" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe("invalid email or password");
    }
    const locked = await call<{ code: string }>("POST", "/auth/login", { actor: null, body: { email: address, password: PASSWORD } });
    expect(locked.status).toBe(423);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
  });

  it("when a refresh token is used, then it rotates; using the old one again revokes the whole session", async () => {
    const { tokens } = await registerUser();
    const first = await call<Tokens>("POST", "/auth/refresh", { actor: null, body: { refresh_token: tokens.refresh_token } });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    const sid = (jwt.decode(first.body.access_token) as { sid: string }).sid;

    const reuse = await call<{ code: string }>("POST", "/auth/refresh", { actor: null, body: { refresh_token: tokens.refresh_token } });
    expect(reuse.status).toBe(401);
    // the thief's replay also killed the legitimate holder's newest token
    expect((await call("POST", "/auth/refresh", { actor: null, body: { refresh_token: first.body.refresh_token } })).status).toBe(401);
    expect(await infra.redis?.exists(redisKeys.revokedSession(config.redis.key_prefix, sid))).toBe(1);
  });

  it("when the caller asks for /auth/me, then it gets its own record", async () => {
    const { user } = await registerUser();
    const me = await call<{ id: string }>("GET", "/auth/me", {
      actor: { user_id: user.id, email: user.email, is_system_admin: false, session_id: null, api_key: null },
    });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it("when a user registers and signs in, then each is an audit entry naming the user and the client's IP", async () => {
    const { email: address, user } = await registerUser();
    expect((await call("POST", "/auth/login", { actor: null, body: { email: address, password: PASSWORD } })).status).toBe(200);
    const registered = await audit.next("user.registered", user.id);
    expect(registered).toEqual({
      action: "user.registered",
      actor_user_id: user.id,
      actor_api_key_id: null,
      target_type: "user",
      target_id: user.id,
      ip_address: "127.0.0.1",
      metadata: {},
    });
    expect(await audit.next("user.login", user.id)).toEqual({ ...registered, action: "user.login" });
  });

  it("when a login fails or meets the session limit, then no login is recorded", async () => {
    const { email: address, user } = await registerUser();
    const login = (password: string) => call("POST", "/auth/login", { actor: null, body: { email: address, password } });
    expect((await login(PASSWORD)).status).toBe(200);
    expect((await login("Wrong-password-1")).status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(409);
    // sentinel: an entry written after the refused logins; once it is in, theirs would be too
    await call("POST", "/auth/forgot-password", { actor: null, body: { email: address } });
    await audit.next("user.password_reset_requested", user.id);
    expect(audit.matching("user.login", user.id)).toHaveLength(1);
  });

  it("never logs a password or token", () => {
    expect(logs.text()).not.toContain(PASSWORD);
    expect(logs.text()).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  });
});
