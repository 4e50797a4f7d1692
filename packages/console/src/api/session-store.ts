import { BurnBox, errorFromResponse, type AuthResult, type components } from "@burnbox/sdk";

export type User = components["schemas"]["User"];

export type SessionState =
  { status: "loading" } | { status: "anonymous"; reason?: "signed-out" | "expired" } | { status: "signed-in"; user: User };

/** Refresh this long before the access token lapses (or at half its life when that is shorter). */
const REFRESH_AHEAD_MS = 60_000;
const LOCK_NAME = "burnbox-refresh";

/**
 * The signed-in session. Cookie mode (`use_cookie: true`) everywhere: the refresh token is an
 * httpOnly cookie on /api/v1/auth that no script can read; the access token lives only in this
 * object's memory. A timer refreshes before the access token lapses; a reload starts with a
 * refresh (the cookie survives it). Refreshes are serialised across tabs (Web Locks), because
 * refresh tokens rotate and two tabs presenting the same old one would revoke the session.
 */
export class SessionStore {
  readonly client: BurnBox;
  private accessToken: string | undefined;
  private expiresAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<boolean> | undefined;
  private state: SessionState = { status: "loading" };
  private readonly listeners = new Set<() => void>();

  constructor(baseUrl: string) {
    this.client = new BurnBox({
      baseUrl,
      credentials: "same-origin",
      getToken: () => this.accessToken,
      onUnauthorized: () => this.refresh(),
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): SessionState => this.state;

  /** On start: a surviving refresh cookie signs the user straight back in. */
  async start(): Promise<void> {
    if (!(await this.refresh())) return;
    const me = await this.client.api.GET("/auth/me");
    if (me.data) this.set({ status: "signed-in", user: me.data });
    else this.clear("expired");
  }

  /** After login, register, login/resolve or the SSO exchange (each sent with `use_cookie: true`). */
  signedIn(result: AuthResult): void {
    this.useTokens(result.tokens.access_token, result.tokens.expires_in);
    this.set({ status: "signed-in", user: result.user });
  }

  /** The profile changed (PATCH /auth/me answered it). */
  setUser(user: User): void {
    if (this.state.status === "signed-in") this.set({ status: "signed-in", user });
  }

  /** New tokens from the refresh cookie; false (and signed out) when the session is gone. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.withLock(async () => {
      const r = await this.client.api.POST("/auth/refresh", { body: { use_cookie: true } });
      if (!r.data) {
        this.clear(this.state.status === "signed-in" ? "expired" : undefined);
        return false;
      }
      this.useTokens(r.data.access_token, r.data.expires_in);
      return true;
    })
      .catch(() => false)
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /** Ends this session on the server (the cookie goes with it) and here. */
  async logout(): Promise<void> {
    const r = await this.client.api.POST("/auth/logout", { body: {} });
    if (!r.response.ok && r.response.status !== 401) throw errorFromResponse(r.response.status, r.error, r.response.headers);
    this.clear("signed-out");
  }

  /** The session ended elsewhere (account deleted, password reset): forget it here. */
  forget(): void {
    this.clear("signed-out");
  }

  /** A background tab's timers are throttled: on return, refresh at once when the token is (nearly) spent. */
  onVisible(): void {
    if (this.state.status === "signed-in" && Date.now() > this.expiresAt - REFRESH_AHEAD_MS / 2) void this.refresh();
  }

  private useTokens(accessToken: string, expiresIn: number): void {
    this.accessToken = accessToken;
    const lifetime = expiresIn * 1000;
    this.expiresAt = Date.now() + lifetime;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), Math.max(lifetime - REFRESH_AHEAD_MS, lifetime / 2));
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

  private withLock<T>(fn: () => Promise<T>): Promise<T> {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    return locks ? (locks.request(LOCK_NAME, fn) as Promise<T>) : fn();
  }
}
