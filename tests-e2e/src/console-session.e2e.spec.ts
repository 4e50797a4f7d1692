import { createHmac } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { TEST_JWT_SECRET, waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { attachConsole } from "./console/browser";
import { signIn, signOut, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { registerUser } from "./world";

/**
 * The console's session over time, in Chromium against the shared system: the silent refresh
 * before the access token lapses, refreshes from two tabs at once (refresh tokens rotate and a
 * reused one revokes the whole session, so the tabs must take turns), and the logout with a lapsed
 * access token. Time in the page moves with Playwright's clock (`context.clock`), never by waiting.
 */
describe("the console: the session over time", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  const accountMenu = (page: Page) => page.getByRole("button", { name: /^Account menu for / });
  const isRefresh = (url: string) => new URL(url).pathname === "/api/v1/auth/refresh";
  /** Every API answer of the context, to check afterwards that none was a 401 (a 401 and a retry would hide a late refresh). */
  const answers = (context: BrowserContext) => {
    const seen: { path: string; status: number }[] = [];
    context.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/api/v1/")) seen.push({ path, status: r.status() });
    });
    return seen;
  };
  /** Signs in on the page and gives the access token the login answered with. */
  const signInFor = async (page: Page, email: string): Promise<string> => {
    const login = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/auth/login", { timeout: 60_000 });
    await signIn(page, email);
    return ((await (await login).json()) as { tokens: { access_token: string } }).tokens.access_token;
  };

  it("when the access token nears its end, then the console refreshes it in time and the next call after the old one's lapse carries the new one", async () => {
    const user = await registerUser(api, "silent");
    const { context, page } = await userBrowser(ui.browser, system);
    context.setDefaultTimeout(45_000); // the machine is shared: be patient, never sleep
    try {
      await context.clock.install();
      const first = await signInFor(page, user.email);
      const seen = answers(context);

      // 14 minutes into the 15-minute token: the console's timer asks for a new one
      const refreshed = page.waitForResponse((r) => isRefresh(r.url()));
      await context.clock.fastForward("14:01");
      const r = await refreshed;
      expect(r.status()).toBe(200);
      const fresh = ((await r.json()) as { access_token: string }).access_token;
      expect(fresh).not.toBe(first);

      // past the first token's 15 minutes: the next API call carries the new token
      await context.clock.fastForward("01:30");
      const call = page.waitForRequest((q) => new URL(q.url()).pathname === "/api/v1/auth/sessions");
      await accountMenu(page).click();
      await page.getByRole("menuitem", { name: "Account" }).click();
      expect((await call).headers()["authorization"]).toBe(`Bearer ${fresh}`);
      await page.getByRole("heading", { name: "Account" }).first().waitFor();
      expect(seen.filter((s) => s.status === 401)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when two tabs refresh at the same moment, then they take turns, no refresh token is used twice, both stay signed in, and a sign-out in one ends both", async () => {
    const user = await registerUser(api, "tabs");
    const { context, page: a } = await userBrowser(ui.browser, system);
    context.setDefaultTimeout(45_000);
    try {
      await context.clock.install();
      await signIn(a, user.email);
      const b = await context.newPage();
      await b.goto("/");
      await accountMenu(b).waitFor();

      // hold the first refresh until the other tab is queued behind it, or (were there no lock)
      // has sent its own with the same cookie: both tabs' timers fire together below
      let arrived = 0;
      const statuses: number[] = [];
      context.on("response", (r) => {
        if (isRefresh(r.url())) statuses.push(r.status());
      });
      const queued = () =>
        a.evaluate(async () => {
          type Locks = { query(): Promise<{ pending?: { name: string }[] }> };
          const { locks } = (globalThis as unknown as { navigator: { locks: Locks } }).navigator;
          return ((await locks.query()).pending ?? []).some((l) => l.name === "burnbox-refresh");
        });
      await context.route(
        (url) => isRefresh(url.href),
        async (route) => {
          if (++arrived === 1)
            await waitFor(async () => arrived > 1 || (await queued()), { what: "the other tab's refresh", timeoutMs: 15_000 });
          await route.continue();
        },
      );
      await context.clock.fastForward("14:30");
      await waitFor(async () => statuses.length >= 1 && statuses.length === arrived && !(await queued()), {
        what: "the refreshes to settle",
      });
      expect(statuses.every((s) => s === 200)).toBe(true);
      await context.unrouteAll();

      // the session survived: each tab, reloaded, signs back in from the (shared) refresh cookie
      for (const page of [a, b]) {
        await page.reload();
        await accountMenu(page).waitFor();
      }
      expect(statuses.every((s) => s === 200)).toBe(true);

      // signing out in one tab ends the session in the other too, at once
      await signOut(a);
      await b.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("when the access token has lapsed, then signing out still ends the session on the server", async () => {
    const user = await registerUser(api, "lapsed");
    const { context, page } = await userBrowser(ui.browser, system);
    context.setDefaultTimeout(45_000); // the machine is shared: be patient, never sleep
    try {
      const token = await signInFor(page, user.email);
      const lapsed = expiredCopy(token);
      expect((await api("GET", "/auth/me", { token: lapsed })).status).toBe(401);
      await accountMenu(page).click();
      // the token lapses while the menu is open (as after a night in a background tab): from now on
      // every call that carries it carries a lapsed one of the same session
      await context.route("**/api/v1/**", (route) => {
        const headers = route.request().headers();
        return route.continue(headers["authorization"] ? { headers: { ...headers, authorization: `Bearer ${lapsed}` } } : undefined);
      });
      await page.getByRole("menuitem", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
      // the browser's session is over on the server: its (unexpired) access token is refused
      const after = await api<{ error: string }>("GET", "/auth/me", { token });
      expect(after.status).toBe(401);
      expect(after.body.error).toBe("session revoked");
      expect((await context.cookies()).find((c) => c.name === "bb_refresh_token")).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});

/** The same claims (same session), with `exp` an hour ago, signed with the system's secret (HS256). */
function expiredCopy(jwt: string): string {
  const [header, payload] = jwt.split(".") as [string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  const body = Buffer.from(JSON.stringify({ ...claims, iat: now - 7200, exp: now - 3600 })).toString("base64url");
  const signature = createHmac("sha256", TEST_JWT_SECRET).update(`${header}.${body}`).digest("base64url");
  return `${header}.${body}.${signature}`;
}
