import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { apiClient, sendMail } from "./clients";
import { connectBrowser } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signIn } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain } from "./world";

/**
 * Screenshots of the admin console, light and dark (see console/screenshots.ts); skipped unless
 * BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare` compares the pictures with
 * docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/).
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: admin console screenshots", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  let admin: { email: string; token: string; userId: string };
  let providerId = "";
  let memberEmail = "";

  beforeAll(async () => {
    browser = await connectBrowser(system);
    admin = await registerAdmin(api, system);
    // each picture signs the admin in afresh: more sessions than the default limit
    await api("PATCH", `/admin/users/${admin.userId}`, { token: admin.token, body: { max_sessions: 50 } });
    // something to count and list: a team with mail, a few users, an org, a provider with a mapping
    const world = await teamWithDomain(api);
    memberEmail = world.owner.email;
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `shots-${randomBytes(3).toString("hex")}`);
    await sendMail(system.ports.smtp, { from: "billing@example.org", to: inbox.full_address, subject: "Invoice", text: "hi" });
    for (const label of ["ada", "grace", "linus"]) await registerUser(api, label);
    const org = await api<{ id: string }>("POST", "/orgs", { token: admin.token, body: { name: "Acme QA" } });
    const provider = await api<{ id: string }>("POST", "/admin/sso/providers", {
      token: admin.token,
      body: {
        name: `google-${randomBytes(2).toString("hex")}`,
        provider_type: "google",
        label: "Google Workspace",
        client_id: "1234-example.apps.googleusercontent.com",
        client_secret: randomBytes(12).toString("hex"),
        enabled: false,
      },
    });
    providerId = provider.body.id;
    await api("POST", `/admin/sso/providers/${providerId}/domain-mappings`, {
      token: admin.token,
      body: { domain: "acme.example", org_id: org.body.id, org_role: "member" },
    });
  });
  afterAll(async () => {
    if (providerId) await api("DELETE", `/admin/sso/providers/${providerId}`, { token: admin.token });
    await browser?.close();
  });

  const shoot = async (name: string, open: Parameters<typeof shootBoth>[3], options?: Parameters<typeof shootBoth>[4]) => {
    const files = await shootBoth(browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  it("the platform overview: live statistics, health, version", async () => {
    const open = async (page: Parameters<Parameters<typeof shootBoth>[3]>[0]) => {
      await signIn(page, admin.email);
      await page.goto("/admin");
      await page.getByRole("status", { name: "Statistics stream: Live" }).waitFor();
      await page.getByRole("table", { name: "Health" }).waitFor();
    };
    await shoot("admin-overview", open, { height: 1000 });
    await shoot("admin-overview-narrow", open, { width: 360, height: 900 });
  }, 90_000);

  it("the users page", async () => {
    await shoot("admin-users", async (page) => {
      await signIn(page, admin.email);
      await page.goto("/admin/users");
      await page.getByRole("table", { name: "Users" }).waitFor();
    });
  }, 60_000);

  it("the platform settings, mailer and storage", async () => {
    await shoot(
      "admin-settings",
      async (page) => {
        await signIn(page, admin.email);
        await page.goto("/admin/settings");
        await page.getByRole("button", { name: "Test the mailer" }).waitFor();
      },
      { height: 1500 },
    );
  }, 60_000);

  it("an SSO provider with a domain mapping", async () => {
    await shoot(
      "admin-sso-provider",
      async (page) => {
        await signIn(page, admin.email);
        await page.goto(`/admin/sso/${providerId}`);
        await page.getByRole("table", { name: "Domain mappings" }).getByText("acme.example").waitFor();
      },
      { height: 1400 },
    );
  }, 60_000);

  it("an admin page refused to a member", async () => {
    await shoot("admin-refused", async (page) => {
      await signIn(page, memberEmail);
      await page.goto("/admin/users");
      await page.getByText("Not available to your role").waitFor();
    });
  }, 60_000);
});
