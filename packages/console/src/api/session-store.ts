import { BurnBox, errorFromResponse, type AuthResult, type components } from "@burnbox/sdk";

export type User = components["schemas"]["User"];

export type SessionState =
  { status: "loading" } | { status: "anonymous"; reason?: "signed-out" | "expired" } | { status: "signed-in"; user: User };

/** Refresh this long before the access token lapses (or at half its life when that is shorter). */
const REFRESH_AHEAD_MS = 60_000;
const LOCK_NAME = "burnbox-refresh";
const CHANNEL_NAME = "burnbox-session";

/** What one tab tells the others (same origin only): a new access token, or the session's end. */
type TabMessage = { type: "refreshed"; accessToken: string; expiresAt: number } | { type: "ended"; reason: "signed-out" | "expired" };

/** The browser pieces the store needs; the defaults are the page's own (tests pass stand-ins). */
export interface SessionStoreEnv {
  /** Web Locks (absent outside a secure context: then refreshes are serialised within this tab only). */
  locks?: Pick<LockManager, "request"> | undefined;
  /** A channel to the console's other tabs (absent: each tab learns of a change on its next refresh). */
  channel?: Pick<BroadcastChannel, "postMessage" | "addEventListener"> | undefined;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The signed-in session. Cookie mode (`use_cookie: true`) everywhere: the refresh token is an
 * httpOnly cookie on /api/v1/auth that no script can read; the access token lives only in memory
 * (this object's, and its sibling tabs' through the channel). A timer refreshes before the access
 * token lapses; a reload starts with a refresh (the cookie survives it).
 *
 * Refresh tokens rotate, and presenting a rotated one again revokes the whole session family
 * (contract-notes, Auth). All tabs share one cookie, so two tabs refreshing at once would present
 * the same token twice and sign the user out everywhere. Hence every refresh (and the logout) runs
 * under one Web Lock for the origin: the next holder's request carries the cookie the previous
 * one's answer set. The winner posts its token on a BroadcastChannel; a tab that was waiting for
 * the lock and meanwhile received a token that is still fresh uses it and sends nothing. A logout
 * or a refused refresh is posted too, so every tab leaves at once.
 */
export class SessionStore {
  readonly client: BurnBox;
  private accessToken: string | undefined;
  private expiresAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<boolean> | undefined;
  private state: SessionState = { status: "loading" };
  private started: Promise<void> | undefined;
  private firstRefresh: Promise<boolean> | undefined;
  private sent: (() => void) | undefined;
  /**
   * Settles once start()'s refresh is on the wire (or was not needed). The lock is granted in a
   * task of its own; the console's entry waits for this before it runs the rest of the console,
   * whose evaluation would otherwise hold that task back.
   */
  readonly firstRefreshSent = new Promise<void>((resolve) => (this.sent = resolve));
  private readonly listeners = new Set<() => void>();
  private readonly locks: SessionStoreEnv["locks"];
  private readonly channel: SessionStoreEnv["channel"];
  private readonly now: () => number;

  constructor(baseUrl: string, env: SessionStoreEnv = browserEnv()) {
    this.locks = env.locks;
    this.channel = env.channel;
    this.now = env.now ?? Date.now;
    this.client = new BurnBox({
      baseUrl,
      credentials: "same-origin",
      getToken: () => this.accessToken,
      onUnauthorized: () => this.refresh(),
      ...(env.fetch ? { fetch: env.fetch } : {}),
    });
    this.channel?.addEventListener("message", (e) => this.onTabMessage((e as MessageEvent<TabMessage>).data));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): SessionState => this.state;

  /** On start (once; later calls share the first): a surviving refresh cookie signs the user straight back in. */
  start(): Promise<void> {
    return (this.started ??= this.resume());
  }

  /**
   * Whether start()'s refresh gave an access token: true before `/auth/me` has answered, so a
   * page's first queries can go out beside it. False when signed out (or not started).
   */
  resumed(): Promise<boolean> {
    return this.firstRefresh ?? Promise.resolve(false);
  }

  private async resume(): Promise<void> {
    this.firstRefresh = this.refresh();
    if (!(await this.firstRefresh)) return;
    const me = await this.client.api.GET("/auth/me");
    if (me.data) this.set({ status: "signed-in", user: me.data });
    else this.clear("expired");
  }

  /** After login, register, login/resolve or the SSO exchange (each sent with `use_cookie: true`). */
  signedIn(result: AuthResult): void {
    this.useTokens(result.tokens.access_token, this.now() + result.tokens.expires_in * 1000);
    this.set({ status: "signed-in", user: result.user });
  }

  /** The profile changed (PATCH /auth/me answered it). */
  setUser(user: User): void {
    if (this.state.status === "signed-in") this.set({ status: "signed-in", user });
  }

  /**
   * New tokens from the refresh cookie; false (and signed out, here and in the other tabs) when the
   * session is gone. One refresh at a time per tab, and one at a time across tabs (the lock).
   */
  refresh(): Promise<boolean> {
    const held = this.accessToken;
    this.inFlight ??= this.withLock(async () => {
      // another tab refreshed while this one waited for the lock: its token serves here too
      if (this.accessToken && this.accessToken !== held && this.expiresAt - this.now() > REFRESH_AHEAD_MS) return true;
      const answer = this.client.api.POST("/auth/refresh", { body: { use_cookie: true } });
      this.sent?.();
      const r = await answer;
      if (!r.data) {
        // 401: the session is over, for every tab; anything else (429, 5xx) is this tab's trouble
        if (this.state.status === "signed-in" && r.response.status === 401) this.end("expired");
        else this.clear(this.state.status === "signed-in" ? "expired" : undefined);
        return false;
      }
      this.useTokens(r.data.access_token, this.now() + r.data.expires_in * 1000);
      this.post({ type: "refreshed", accessToken: r.data.access_token, expiresAt: this.expiresAt });
      return true;
    })
      .catch(() => false)
      .finally(() => {
        this.sent?.();
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /**
   * Ends this session on the server (the cookie goes with it), here and in the other tabs. The
   * logout is public and identifies the session by the refresh cookie alone, so it is sent without
   * the access token: an expired one would otherwise be refused (401) before the session was ended.
   * It waits for a refresh in flight in another tab, so the cookie it carries is the current one.
   */
  async logout(): Promise<void> {
    await this.withLock(async () => {
      const [token, expiresAt] = [this.accessToken, this.expiresAt];
      this.accessToken = undefined;
      const r = await this.client.api.POST("/auth/logout", { body: {} }).catch((err: unknown) => ({ failed: err }));
      if ("failed" in r || !r.response.ok) {
        if (token) this.useTokens(token, expiresAt); // still signed in: this tab keeps working
        throw "failed" in r ? r.failed : errorFromResponse(r.response.status, r.error, r.response.headers);
      }
    });
    this.end("signed-out");
  }

  /** The session ended elsewhere (account deleted, password reset): forget it here and in the other tabs. */
  forget(): void {
    this.end("signed-out");
  }

  /** A background tab's timers are throttled: on return, refresh at once when the token is (nearly) spent. */
  onVisible(): void {
    if (this.state.status === "signed-in" && this.now() > this.expiresAt - REFRESH_AHEAD_MS / 2) void this.refresh();
  }

  private onTabMessage(m: TabMessage): void {
    if (m.type === "ended") {
      if (this.state.status !== "anonymous") this.clear(m.reason);
    } else if (this.state.status !== "anonymous" && m.accessToken !== this.accessToken && m.expiresAt >= this.expiresAt) {
      // refreshes are one at a time across tabs (the lock), so a posted token is the newest; two
      // refreshes within one millisecond give equal expiry times, and the later one still wins
      this.useTokens(m.accessToken, m.expiresAt);
    }
  }

  private useTokens(accessToken: string, expiresAt: number): void {
    this.accessToken = accessToken;
    const lifetime = expiresAt - this.now();
    this.expiresAt = expiresAt;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), Math.max(lifetime - REFRESH_AHEAD_MS, lifetime / 2));
  }

  private end(reason: "signed-out" | "expired"): void {
    this.clear(reason);
    this.post({ type: "ended", reason });
  }

  private clear(reason: "signed-out" | "expired" | undefined): void {
    clearTimeout(this.timer);
    this.accessToken = undefined;
    this.expiresAt = 0;
    this.set(reason ? { status: "anonymous", reason } : { status: "anonymous" });
  }

  private set(state: SessionState): void {
    this.state = state;
    for (const l of this.listeners) l();
  }

  private post(m: TabMessage): void {
    this.channel?.postMessage(m);
  }

  private withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.locks ? (this.locks.request(LOCK_NAME, fn) as Promise<T>) : fn();
  }
}

function browserEnv(): SessionStoreEnv {
  return {
    locks: typeof navigator !== "undefined" ? navigator.locks : undefined,
    channel: typeof BroadcastChannel !== "undefined" ? new BroadcastChannel(CHANNEL_NAME) : undefined,
  };
}
