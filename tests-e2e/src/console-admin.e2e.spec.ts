import type { ChildProcess } from "node:child_process";
import type { Server } from "node:net";
import { randomBytes, randomInt } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { connectBrowser } from "./console/browser";
import { close, intakeRelay } from "./relays";
import { expectNoSidewaysScroll, NARROW, tabTo } from "./console/narrow";
import { signIn, uniqueEmail, userBrowser } from "./console/world";
import { startOidcProvider } from "./oidc-provider";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, STRONG_PASSWORD, teamWithDomain } from "./world";

interface Platform {
  allow_registration: boolean;
  max_sessions_per_user: number;
  default_inbox_ttl: string;
  max_inbox_ttl: string;
}

/** The admin console (system admins only) in Chromium against the shared system. */
describe("the console: admin console", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  let admin: { email: string; token: string; userId: string };
  let platformBefore: Platform;
  const providers: string[] = [];
  let oidc: ChildProcess | undefined;

  beforeAll(async () => {
    browser = await connectBrowser(system);
    admin = await registerAdmin(api, system);
    // every test signs the admin in afresh: more sessions than the default limit
    await api("PATCH", `/admin/users/${admin.userId}`, { token: admin.token, body: { max_sessions: 50 } });
    platformBefore = (await api<Platform>("GET", "/admin/platform", { token: admin.token })).body;
  });
  afterAll(async () => {
    // the shared system goes on as it was: the platform settings, and no provider of ours
    const { allow_registration, max_sessions_per_user } = platformBefore;
    await api("PUT", "/admin/platform", { token: admin.token, body: { allow_registration, max_sessions_per_user } });
    for (const id of providers) await api("DELETE", `/admin/sso/providers/${id}`, { token: admin.token });
    oidc?.kill();
    await browser?.close();
  });

  const adminPage = async (path: string) => {
    const session = await userBrowser(browser, system);
    await signIn(session.page, admin.email);
    await session.page.goto(path);
    return session;
  };
  /** A statistic's number as shown (null while none has come). */
  const statValue = async (page: Page, testId: string): Promise<number | null> => {
    const text = (await page.getByTestId(testId).textContent()) ?? "";
    return /\d/.test(text) ? Number(text.replace(/[^\d]/g, "")) : null;
  };

  it("when mail arrives through SMTP, then the admin's live statistics count it; health and version show", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `live-${randomBytes(3).toString("hex")}`);
    const { context, page } = await adminPage("/admin");
    try {
      await page.getByRole("heading", { name: "Platform", level: 1 }).waitFor();
      await page.getByRole("status", { name: "Statistics stream: Live" }).waitFor();
      // (wrapped: the count may be 0 on a fresh system)
      const { before } = await waitFor(
        async () => {
          const n = await statValue(page, "stat-total_emails");
          return n === null ? null : { before: n };
        },
        { what: "the first statistics" },
      );
      expect(
        (await sendMail(system.ports.smtp, { from: "a@live.test", to: inbox.full_address, subject: "live", text: "t" })).data?.code,
      ).toBe(250);
      // the server pushes every 10 s
      await waitFor(async () => ((await statValue(page, "stat-total_emails")) ?? 0) > before || null, {
        what: "the mail counted in the live statistics",
        timeoutMs: 25_000,
      });
      const health = page.getByRole("table", { name: "Health" });
      await health.getByRole("row").filter({ hasText: "postgres" }).waitFor();
      await page.getByText(/^BurnBox \d+\.\d+\.\d+/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("when the admin turns registration off, then the API refuses sign-ups; turned on again, it accepts them; the mailer test shows its result", async () => {
    const { context, page } = await adminPage("/admin/settings");
    let relay: Server | undefined;
    try {
      const platform = page.getByRole("region", { name: "Platform", exact: true });
      const registration = platform.getByRole("switch", { name: "Allow registration" });
      await registration.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      if (!(await registration.isChecked())) throw new Error("registration was already off");
      await registration.click({ force: true });
      await platform.getByRole("button", { name: "Save platform settings" }).click();
      await page.getByText("Platform settings saved").waitFor();
      const signUp = () =>
        api<{ code?: string }>("POST", "/auth/register", {
          body: { email: uniqueEmail("closed"), password: STRONG_PASSWORD, display_name: "Closed" },
        });
      const refused = await signUp();
      expect([refused.status, refused.body.code]).toEqual([403, "forbidden"]);

      await registration.click({ force: true });
      await platform.getByRole("button", { name: "Save platform settings" }).click();
      await waitFor(async () => (await api<Platform>("GET", "/admin/platform", { token: admin.token })).body.allow_registration || null, {
        what: "registration open again",
      });
      expect((await signUp()).status).toBe(201);

      // a mailer saved through the console: a relay to the system's own intake on an address the
      // e2e system allows (infra.unsafe_allowed_targets); its password is write-only (set or not
      // set, never a value), and the test answers in words
      relay = await intakeRelay(`127.77.${randomInt(0, 256)}.${randomInt(1, 255)}`, system.ports.smtp);
      const relayAt = relay.address() as { address: string; port: number };
      const mailer = page.getByRole("region", { name: "Mailer" });
      await mailer.getByText(/^(set|not set)$/).waitFor();
      expect(await mailer.getByLabel("New password").inputValue()).toBe("");
      await mailer.getByLabel("SMTP host").fill(relayAt.address);
      await mailer.getByRole("textbox", { name: "Port" }).fill(String(relayAt.port));
      await mailer.getByLabel("Sender (From)").fill("BurnBox <no-reply@burnbox.local>");
      await mailer.getByLabel("Username").fill("");
      await mailer.getByRole("button", { name: "Save mailer" }).click();
      await page.getByText("Mailer saved").waitFor();
      await mailer.getByRole("button", { name: "Test the mailer" }).click();
      const result = mailer.getByRole("status").filter({ hasText: /Mailer test (passed|failed)/ });
      await result.waitFor();
      expect(await result.textContent()).toMatch(/Mailer test passed.*SMTP connection successful/);
    } finally {
      // account mail goes back to the configured mailer (the system's own intake), as admin-config leaves it
      await api("PUT", "/admin/config/mailer", {
        token: admin.token,
        body: { host: "127.0.0.1", port: system.ports.smtp, from: "BurnBox <no-reply@burnbox.local>", tls: false },
      });
      if (relay) await close(relay);
      await context.close();
    }
  });

  it("when the admin revokes a user's sessions from the users page, then the user's token stops working", async () => {
    const user = await registerUser(api, "revoked");
    expect((await api("GET", "/auth/me", { token: user.token })).status).toBe(200);
    const { context, page } = await adminPage("/admin/users");
    try {
      await page.getByLabel("Search users").fill(user.email);
      await page.waitForURL((u) => u.searchParams.get("q") === user.email);
      const row = page.getByRole("table", { name: "Users" }).getByRole("row").filter({ hasText: user.email });
      await row.waitFor();
      // the search leaves the header and this one user
      const rows = page.getByRole("table", { name: "Users" }).getByRole("row");
      await waitFor(async () => ((await rows.count()) === 2 ? true : null), { what: "only the searched user listed" });
      expect(await seriousViolations(page)).toEqual([]);
      await row.getByRole("button", { name: `Actions for ${user.email}` }).click();
      await page.getByRole("menuitem", { name: "Revoke all sessions…" }).click();
      await page.getByRole("dialog", { name: "Revoke all sessions?" }).getByRole("button", { name: "Revoke sessions" }).click();
      await page.getByText(`Every session of ${user.email} was revoked`).waitFor();
      await waitFor(async () => ((await api("GET", "/auth/me", { token: user.token })).status === 401 ? true : null), {
        what: "the revoked token refused",
      });
    } finally {
      await context.close();
    }
  });

  it("when the admin creates a provider from the OpenID preset, then it tests against the provider, can be disabled, and a domain mapping previews", async () => {
    const name = `adm-${randomBytes(3).toString("hex")}`;
    const clientSecret = randomBytes(12).toString("hex");
    let issuer: string;
    ({ issuer, child: oidc } = await startOidcProvider([`${system.gatewayUrl}/api/v1/auth/sso/${name}/callback`], {
      id: "admin-console-e2e",
      secret: clientSecret,
    }));
    const orgName = `Mapped ${randomBytes(3).toString("hex")}`;
    expect((await api("POST", "/orgs", { token: admin.token, body: { name: orgName } })).status).toBe(201);
    const { context, page } = await adminPage("/admin/sso");
    try {
      await page.getByRole("heading", { name: "SSO providers", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Add provider" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Add an SSO provider" });
      await dialog.getByRole("radio", { name: "Other OpenID Connect" }).check();
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByLabel("Button label").fill(`Test IdP ${name}`);
      await dialog.getByLabel("Issuer URL").fill(issuer);
      await dialog.getByLabel("Client ID").fill("admin-console-e2e");
      await dialog.getByLabel("Client secret").fill(clientSecret);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Test these settings" }).click();
      await dialog.getByRole("status").filter({ hasText: "Provider test passed" }).waitFor();
      // off unless the admin says the provider owns its addresses
      const trust = dialog.getByRole("switch", { name: "Trust this provider's email addresses" });
      expect(await trust.isChecked()).toBe(false);
      await trust.check();
      await dialog.getByRole("button", { name: "Create provider" }).click();

      await page.getByRole("heading", { name: `Test IdP ${name}`, level: 1 }).waitFor();
      providers.push(new URL(page.url()).pathname.split("/").pop()!);
      const saved = await api<{ trust_email: boolean }>("GET", `/admin/sso/providers/${providers.at(-1)!}`, { token: admin.token });
      expect(saved.body.trust_email).toBe(true);
      // the secret is write-only: stored, never shown
      await page.getByText("Client secret:").waitFor();
      expect(await page.getByLabel("New client secret").inputValue()).toBe("");
      expect(await page.content()).not.toContain(clientSecret);
      await page.getByRole("button", { name: "Test provider" }).click();
      await page.getByRole("status").filter({ hasText: "Provider test passed" }).filter({ hasText: issuer }).waitFor();

      await page.getByRole("button", { name: "Disable" }).click();
      await page.getByRole("button", { name: "Enable" }).waitFor();
      const status = await api<{ providers: Array<{ name: string }> }>("GET", "/auth/sso-status");
      expect(status.body.providers.map((p) => p.name)).not.toContain(name);
      await page.getByRole("button", { name: "Enable" }).click();
      await page.getByRole("button", { name: "Disable" }).waitFor();

      const domain = `${name}.example.test`;
      await page.getByRole("button", { name: "Map a domain" }).click();
      const mapping = page.getByRole("dialog", { name: "Map a domain" });
      await mapping.getByLabel("Email domain").fill(domain);
      await mapping.getByLabel(/^Organization\W*$/).click();
      await page.getByRole("option", { name: orgName }).click();
      await mapping.getByRole("button", { name: "Map domain" }).click();
      await page.getByRole("table", { name: "Domain mappings" }).getByRole("row").filter({ hasText: domain }).waitFor();
      // the dialog closed on saving gives the focus back to the button that opened it
      await mapping.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Map a domain" }).and(page.locator(":focus")).waitFor();

      const preview = page.getByRole("region", { name: "Provisioning preview" });
      await preview.getByLabel("Email address").fill(`new.person@${domain}`);
      await preview.getByRole("button", { name: "Preview" }).click();
      await preview
        .getByRole("status")
        .filter({ hasText: `new.person@${domain} would get an account` })
        .waitFor();
      expect(await preview.getByRole("status").textContent()).toContain(`Organization ${orgName}: member`);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("when a member who is not a system admin signs in, then no admin entry shows and a typed admin URL is refused with a reason", async () => {
    const world = await teamWithDomain(api);
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link").first().waitFor();
      for (const label of ["Platform", "Users", "All organizations", "Platform settings", "SSO providers"]) {
        expect(await nav.getByRole("link", { name: label, exact: true }).count()).toBe(0);
      }
      for (const [path, title] of [
        ["/admin", "Platform"],
        ["/admin/users", "Users"],
        ["/admin/settings", "Platform settings"],
        ["/admin/sso", "SSO providers"],
      ] as const) {
        await page.goto(path);
        await page.getByRole("heading", { name: title, level: 1 }).waitFor();
        const refusal = page.getByRole("status").filter({ hasText: "Not available to your role" });
        await refusal.waitFor();
        expect(await refusal.textContent()).toContain("system administrators only");
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when the admin pages are used at 360 px in dark mode, then none scrolls sideways, and Add provider is reached with Tab and opened with Enter", async () => {
    // the orgs table shows only when an org exists (this test may run alone)
    const org = await api("POST", "/orgs", { token: admin.token, body: { name: `Narrow ${Date.now().toString(36)}` } });
    expect(org.status).toBe(201);
    const { context, page } = await userBrowser(browser, system, { ...NARROW, colorScheme: "dark" });
    try {
      await signIn(page, admin.email);
      for (const [path, ready] of [
        ["/admin", page.getByRole("table", { name: "Health" })],
        ["/admin/users", page.getByRole("table", { name: "Users" })],
        ["/admin/orgs", page.getByRole("table", { name: "Organizations" })],
        ["/admin/settings", page.getByRole("button", { name: "Test the mailer" })],
        ["/admin/sso", page.getByRole("heading", { level: 1 })],
      ] as const) {
        await page.goto(path);
        await ready.waitFor();
        await expectNoSidewaysScroll(page);
        expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
      }
      const add = page.getByRole("button", { name: "Add provider" }).first();
      await tabTo(page, add);
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Add an SSO provider" });
      await dialog.waitFor();
      await expectNoSidewaysScroll(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await add.and(page.locator(":focus")).waitFor();
    } finally {
      await context.close();
    }
  });
});
