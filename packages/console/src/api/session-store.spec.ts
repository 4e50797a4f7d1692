import { SessionStore, type SessionStoreEnv, type User } from "./session-store";

/**
 * The store against a stand-in of the identity API's token rules (contract-notes, Auth): refresh
 * tokens rotate, presenting a rotated one revokes the whole session, logout is public and reads the
 * refresh cookie, and a request with an expired bearer is refused before anything else. The tabs of
 * one browser share the cookie jar, a lock manager and a BroadcastChannel, as real tabs do.
 */
const USER = { id: "u1", email: "ada@example.test", display_name: "Ada" } as User;

class FakeIdentity {
  cookie: string | undefined = "rt-0";
  revoked = false;
  reuses = 0;
  logouts = 0;
  private serial = 0;
  private readonly rotated = new Set<string>();
  /** access tokens past their expiry */
  readonly lapsed = new Set<string>();
  readonly seen: { path: string; authorization: string | null }[] = [];

  /** The browser's fetch: the cookie jar is read when the request leaves and written when the answer comes. */
  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname.replace("/api/v1", "");
    const authorization = req.headers.get("authorization");
    this.seen.push({ path, authorization });
    const sent = this.cookie;
    await new Promise((r) => setImmediate(r)); // the network: other requests may leave meanwhile
    const bearer = authorization?.replace("Bearer ", "");
    if (bearer && this.lapsed.has(bearer)) return json(401, { error: { code: "unauthenticated", message: "invalid or expired token" } });
    if (path === "/auth/refresh") {
      if (!sent || this.revoked) return json(401, { error: { code: "unauthenticated", message: "invalid refresh token" } });
      if (this.rotated.has(sent)) {
        this.reuses++;
        this.revoked = true;
        return json(401, { error: { code: "unauthenticated", message: "refresh token reused" } });
      }
      this.rotated.add(sent);
      this.cookie = `rt-${++this.serial}`;
      return json(200, { access_token: `at-${this.serial}`, refresh_token: "", expires_in: 900 });
    }
    if (path === "/auth/logout") {
      this.logouts++;
      if (sent && !this.rotated.has(sent)) this.revoked = true;
      this.cookie = undefined;
      return json(200, { message: "signed out" });
    }
    if (path === "/auth/me") return this.revoked ? json(401, { error: { code: "unauthenticated", message: "revoked" } }) : json(200, USER);
    return json(404, { error: { code: "not_found", message: "no such route" } });
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Web Locks, as one origin's tabs share them: exclusive, first come first served. */
function lockManager(): NonNullable<SessionStoreEnv["locks"]> {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request: ((_name: string, fn: () => Promise<unknown>) => {
      const run = tail.then(fn);
      tail = run.catch(() => undefined);
      return run;
    }) as never,
  };
}

/** A BroadcastChannel between the tabs of one test, delivering at once (the real one delivers on a later task). */
function channelHub() {
  const members: ((m: unknown) => void)[] = [];
  return () => {
    let mine: (m: unknown) => void = () => undefined;
    members.push((m) => mine(m));
    const index = members.length - 1;
    return {
      postMessage: (m: unknown) => members.forEach((deliver, i) => i !== index && deliver(m)),
      addEventListener: ((_type: "message", fn: (e: { data: unknown }) => void) => {
        mine = (data) => fn({ data });
      }) as never,
    };
  };
}

describe("SessionStore across tabs", () => {
  const stores: SessionStore[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.forget(); // stops the refresh timers
  });

  function tabs(
    n: number,
    server: FakeIdentity,
    { sharedLock = true, now }: { sharedLock?: boolean; now?: () => number } = {},
  ): SessionStore[] {
    const join = channelHub();
    const locks = sharedLock ? lockManager() : undefined;
    return Array.from({ length: n }, () => {
      const store = new SessionStore("http://console.test", { locks, channel: join(), fetch: server.fetch, ...(now ? { now } : {}) });
      stores.push(store);
      return store;
    });
  }
  const refreshes = (server: FakeIdentity) => server.seen.filter((s) => s.path === "/auth/refresh").length;

  it("when two tabs refresh at the same moment, then no refresh token is presented twice and both stay signed in", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server);
    await Promise.all([a!.start(), b!.start()]);
    expect([a!.getState().status, b!.getState().status]).toEqual(["signed-in", "signed-in"]);

    expect(await Promise.all([a!.refresh(), b!.refresh(), a!.refresh(), b!.refresh()])).toEqual([true, true, true, true]);
    expect(server.reuses).toBe(0);
    expect(server.revoked).toBe(false);
    expect([a!.getState().status, b!.getState().status]).toEqual(["signed-in", "signed-in"]);
  });

  it("when the tabs share no lock, then the stand-in sees the reuse (the race the lock prevents)", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server, { sharedLock: false });
    await Promise.all([a!.start(), b!.start()]);
    expect(server.reuses).toBe(1);
  });

  it("when a tab waited for the lock while another refreshed, then it uses the token the other one posted and sends nothing", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server);
    await a!.start();
    await b!.start();
    const before = refreshes(server);
    expect(await Promise.all([a!.refresh(), b!.refresh()])).toEqual([true, true]);
    expect(refreshes(server)).toBe(before + 1);
    // both tabs now send the one new token
    await Promise.all([a!.client.api.GET("/auth/me"), b!.client.api.GET("/auth/me")]);
    const [ma, mb] = server.seen.slice(-2);
    expect(ma!.authorization).toBe(`Bearer at-${before + 1}`);
    expect(mb!.authorization).toBe(ma!.authorization);
  });

  it("when the other tab's refresh falls in the same millisecond as this tab's last one (equal expiry times), then its token is still taken and nothing is sent", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server, { now: () => 1_700_000_000_000 });
    await a!.start();
    await b!.start();
    const before = refreshes(server);
    expect(await Promise.all([a!.refresh(), b!.refresh()])).toEqual([true, true]);
    expect(refreshes(server)).toBe(before + 1);
  });

  it("when one tab signs out, then the server session ends and the other tabs leave too", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server);
    await Promise.all([a!.start(), b!.start()]);
    await a!.logout();
    expect(server.revoked).toBe(true);
    expect(a!.getState()).toEqual({ status: "anonymous", reason: "signed-out" });
    expect(b!.getState()).toEqual({ status: "anonymous", reason: "signed-out" });
  });

  it("when the access token has lapsed, then logout still ends the session: it goes without the bearer, on the cookie", async () => {
    const server = new FakeIdentity();
    const [a] = tabs(1, server);
    await a!.start();
    server.lapsed.add("at-1");
    await a!.logout();
    expect(server.seen.find((s) => s.path === "/auth/logout")).toEqual({ path: "/auth/logout", authorization: null });
    expect(server.revoked).toBe(true);
    expect(server.cookie).toBeUndefined();
    expect(a!.getState()).toEqual({ status: "anonymous", reason: "signed-out" });
  });

  it("when the refresh is refused with 401, then every tab learns the session expired", async () => {
    const server = new FakeIdentity();
    const [a, b] = tabs(2, server);
    await Promise.all([a!.start(), b!.start()]);
    server.revoked = true;
    expect(await a!.refresh()).toBe(false);
    expect(a!.getState()).toEqual({ status: "anonymous", reason: "expired" });
    expect(b!.getState()).toEqual({ status: "anonymous", reason: "expired" });
  });

  it("when start is called twice (the boot, then the provider), then one refresh is sent and both calls share it", async () => {
    const server = new FakeIdentity();
    const [a] = tabs(1, server);
    await Promise.all([a!.start(), a!.start()]);
    expect(refreshes(server)).toBe(1);
    expect(server.reuses).toBe(0);
    expect(a!.getState()).toEqual({ status: "signed-in", user: USER });
  });

  it("when the refresh has answered, then resumed() is true before /auth/me has answered, and firstRefreshSent has settled", async () => {
    const server = new FakeIdentity();
    const [a] = tabs(1, server);
    const started = a!.start();
    await a!.firstRefreshSent;
    expect(server.seen.map((s) => s.path)).toEqual(["/auth/refresh"]);
    expect(await a!.resumed()).toBe(true);
    expect(a!.getState()).toEqual({ status: "loading" });
    await started;
    expect(a!.getState()).toEqual({ status: "signed-in", user: USER });
  });

  it("when there is no refresh cookie, then resumed() is false and the tab is anonymous", async () => {
    const server = new FakeIdentity();
    server.cookie = undefined;
    const [a] = tabs(1, server);
    await a!.start();
    expect(await a!.resumed()).toBe(false);
    expect(a!.getState()).toEqual({ status: "anonymous" });
  });
});
