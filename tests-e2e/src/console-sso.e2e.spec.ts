import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { uniqueEmail, userBrowser } from "./console/world";
import { startOidcProvider } from "./oidc-provider";
import { SharedSystem } from "./shared-system";
import { registerAdmin, STRONG_PASSWORD } from "./world";

const CLIENT_ID = "burnbox-console-e2e";
const CLIENT_SECRET = randomBytes(16).toString("hex");
const NAME = `console-${randomBytes(3).toString("hex")}`;
const LABEL = `Test IdP ${NAME}`;

/** At the provider's own pages (oidc-provider's development interactions): sign in as `login`, then consent. */
async function atProvider(page: Page, login: string, issuer: string) {
  await page.waitForURL((u) => u.href.startsWith(issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/** Single sign-on in the console, through a real OpenID provider on 127.0.0.1. */
describe("the console: single sign-on", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let issuer = "";
  let provider: ChildProcess | undefined;
  let admin = { token: "" };

  beforeAll(async () => {
    ({ issuer, child: provider } = await startOidcProvider([`${system.gatewayUrl}/api/v1/auth/sso/${NAME}/callback`], {
      id: CLIENT_ID,
      secret: CLIENT_SECRET,
    }));
    admin = await registerAdmin(api, system);
    const created = await api("POST", "/admin/sso/providers", {
      token: admin.token,
      body: {
        name: NAME,
        provider_type: "oidc",
        label: LABEL,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        issuer_url: issuer,
        auto_provision: true,
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    provider?.kill();
  });

  it("when a user chooses the provider's button, then they sign in at the provider and come back signed in (the sso_code exchange)", async () => {
    const email = uniqueEmail("sso");
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await page.goto("/login");
      await page.getByRole("link", { name: `Continue with ${LABEL}` }).click();
      await atProvider(page, email, issuer);
      await page.getByRole("button", { name: /^Account menu for / }).waitFor();
      // the code was used and dropped from the address bar's history entry
      expect(new URL(page.url()).searchParams.get("sso_code")).toBeNull();
      await page.goto("/account");
      const sso = page.getByRole("region", { name: "Single sign-on" });
      await sso.getByText(email).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // the identity is this account's only way in: the API refuses to unlink it, and the page says why
      await sso.getByRole("button", { name: `Unlink ${NAME}` }).click();
      await sso.getByRole("alert").waitFor();
      expect(await sso.getByRole("alert").textContent()).toMatch(/last/i);
    } finally {
      await context.close();
    }
  });

  it("when an SSO login meets the session limit, then the console offers the sessions (#session_conflict=) and completes the login", async () => {
    const email = uniqueEmail("sso-limit");
    const first = await userBrowser(ui.browser, system);
    const second = await userBrowser(ui.browser, system);
    try {
      await first.page.goto("/login");
      await first.page.getByRole("link", { name: `Continue with ${LABEL}` }).click();
      await atProvider(first.page, email, issuer);
      await first.page.getByRole("button", { name: /^Account menu for / }).waitFor();
      // who signed in (the browser's own session, through its refresh cookie), limited to one session by an admin
      const refreshed = await first.context.request.post("/api/v1/auth/refresh", { data: { use_cookie: true } });
      const me = await api<{ id: string }>("GET", "/auth/me", {
        token: ((await refreshed.json()) as { access_token: string }).access_token,
      });
      expect((await api("PATCH", `/admin/users/${me.body.id}`, { token: admin.token, body: { max_sessions: 1 } })).status).toBe(200);

      await second.page.goto("/login");
      await second.page.getByRole("link", { name: `Continue with ${LABEL}` }).click();
      await atProvider(second.page, email, issuer);
      await second.page.getByRole("heading", { name: "Too many sessions" }).waitFor();
      await second.page.getByRole("radio").first().check();
      await second.page.getByRole("button", { name: "End that session and sign in" }).click();
      await second.page.getByRole("button", { name: /^Account menu for / }).waitFor();
      // the first browser's session was the one ended
      expect((await first.context.request.post("/api/v1/auth/refresh", { data: { use_cookie: true } })).status()).toBe(401);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it("when someone registered the address with a password and never verified it, then the SSO login is refused and the page says to sign in with the password and link from the account page", async () => {
    const email = uniqueEmail("sso-taken");
    const registered = await api("POST", "/auth/register", { body: { email, password: STRONG_PASSWORD, display_name: "First" } });
    expect(registered.status).toBe(201);
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await page.goto("/login");
      await page.getByRole("link", { name: `Continue with ${LABEL}` }).click();
      await atProvider(page, email, issuer);
      await page
        .getByRole("alert")
        .filter({ hasText: "Sign in with your password, then link the identity provider from your account page" })
        .waitFor();
      expect(new URL(page.url()).hash).toBe("#error=link_required");
    } finally {
      await context.close();
    }
  });

  it("when the provider does not vouch for the email, then the login page shows why (#error=)", async () => {
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await page.goto("/login");
      await page.getByRole("link", { name: `Continue with ${LABEL}` }).click();
      await atProvider(page, `unverified+${uniqueEmail("sso")}`, issuer);
      await page.getByRole("alert").filter({ hasText: "did not confirm your email address" }).waitFor();
      expect(new URL(page.url()).hash).toBe("#error=email_not_verified");
    } finally {
      await context.close();
    }
  });
});
