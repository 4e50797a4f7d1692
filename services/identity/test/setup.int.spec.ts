import { RpcName } from "@burnbox/contracts";
import { rpcRequest } from "@burnbox/service-kit/messaging";
import { PASSWORD, recordAudit, registerUser, startIdentity } from "./support";

type T = Awaited<ReturnType<typeof startIdentity>>;

/** First-run setup's identity half over the real NATS: the first system admin, created atomically, resumed or undone. */
describe("setup admin RPCs", () => {
  let t: T;
  const rpc = <N extends typeof RpcName.setupState | typeof RpcName.setupCreateAdmin | typeof RpcName.setupAbort>(
    name: N,
    body: Parameters<typeof rpcRequest<N>>[3],
  ) => rpcRequest(t.infra.nc, t.ns, name, body, 10_000);
  const create = (email: string, over: Partial<{ password: string; use_cookie: boolean; origin: string | null }> = {}) =>
    rpc(RpcName.setupCreateAdmin, {
      email,
      password: over.password ?? PASSWORD,
      display_name: "Root",
      client_ip: "203.0.113.9",
      user_agent: "setup-test",
      use_cookie: over.use_cookie ?? false,
      origin: over.origin ?? null,
    });

  beforeEach(async () => {
    t = await startIdentity({ base_url: "https://burnbox.example.test", cors: { allowed_origins: ["https://app.example.test"] } });
  });
  afterEach(async () => {
    await t?.stop();
  });

  it("when two setups race on a fresh install, then exactly one creates a signed-in system admin and the other finds setup complete", async () => {
    expect(await rpc(RpcName.setupState, {})).toEqual({ admin_exists: false, setup_admin_id: null });
    const audit = recordAudit(t.infra, t.ns);
    const results = await Promise.all([create("a@example.test"), create("b@example.test"), create("c@example.test")]);
    const outcomes = results.map((r) => r.outcome).sort();
    expect(outcomes).toEqual(["completed", "completed", "created"]);
    const won = results.find((r) => r.outcome === "created")!;
    expect(won.user).toMatchObject({ is_system_admin: true, email_verified: true });
    expect(won.tokens?.refresh_token).not.toBe("");
    expect(await rpc(RpcName.setupState, {})).toEqual({ admin_exists: true, setup_admin_id: won.user!.id });
    // the token pair works like a login's
    const me = await t.call<{ id: string; is_system_admin: boolean }>("GET", "/auth/me", {
      actor: { user_id: won.user!.id, email: won.user!.email, is_system_admin: true, session_id: null, api_key: null },
    });
    expect(me.body).toMatchObject({ id: won.user!.id, is_system_admin: true });
    await audit.next("setup.admin_created", won.user!.id);
    audit.stop();
  });

  it("when setup is retried after an interruption, then only the same email and password sign the setup admin in again", async () => {
    const first = await create("root@example.test");
    expect(first.outcome).toBe("created");
    expect((await create("root@example.test", { password: "Wrong-Horse-9-Battery" })).outcome).toBe("completed");
    expect((await create("other@example.test")).outcome).toBe("completed");
    const again = await create("root@example.test");
    expect(again).toMatchObject({ outcome: "resumed", user: { id: first.user!.id } });
  });

  it("when the details break a rule or cookie mode comes from a foreign origin, then nothing is created", async () => {
    expect(await create("weak@example.test", { password: "short" })).toMatchObject({ outcome: "invalid", user: null, tokens: null });
    expect(await create("x@example.test", { use_cookie: true, origin: "https://evil.example" })).toMatchObject({
      outcome: "origin_refused",
    });
    expect((await rpc(RpcName.setupState, {})).admin_exists).toBe(false);
    const cookie = await create("x@example.test", { use_cookie: true, origin: "https://app.example.test" });
    expect(cookie.outcome).toBe("created");
    expect(cookie.tokens?.refresh_token).toBe("");
    expect(cookie.cookie).toMatchObject({ name: "bb_refresh_token", http_only: true, secure: true, path: "/api/v1/auth" });
    expect(cookie.cookie?.value).toMatch(/.{20,}/);
  });

  it("when setup is undone, then only the admin setup created is removed (another user id is left alone) and setup is open again", async () => {
    const plain = await registerUser(t.call, "plain@example.test");
    expect(await rpc(RpcName.setupAbort, { user_id: plain.user.id })).toEqual({ removed: false });
    const made = await create("root@example.test");
    expect(made.outcome).toBe("created");
    expect(await rpc(RpcName.setupAbort, { user_id: made.user!.id })).toEqual({ removed: true });
    expect(await rpc(RpcName.setupState, {})).toEqual({ admin_exists: false, setup_admin_id: null });
    const login = await t.call("POST", "/auth/login", { actor: null, body: { email: "root@example.test", password: PASSWORD } });
    expect(login.status).toBe(401);
    expect((await t.call("POST", "/auth/login", { actor: null, body: { email: "plain@example.test", password: PASSWORD } })).status).toBe(
      200,
    );
  });
});
