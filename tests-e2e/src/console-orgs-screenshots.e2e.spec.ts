import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { apiClient } from "./clients";
import { connectBrowser } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signInAfresh, uniqueEmail } from "./console/world";
import { SharedSystem } from "./shared-system";
import { registerUser, teamWithDomain } from "./world";

/**
 * Screenshots of the organization pages, light and dark (see console/screenshots.ts); skipped
 * unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare` compares the
 * pictures with docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/). The setup wizard's are taken by console-setup.e2e.spec.ts.
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: organization screenshots", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser(system);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("org pages", async () => {
    const world = await teamWithDomain(api);
    await api("PATCH", `/orgs/${world.orgId}`, { token: world.owner.token, body: { name: "Acme Testing" } });
    await api("PATCH", `/orgs/${world.orgId}/settings`, {
      token: world.owner.token,
      body: { default_inbox_ttl: "30m", max_inbox_ttl: "12h" },
    });
    for (const [label, role] of [
      ["Dana Admin", "admin"],
      ["Lee Member", "member"],
      ["Sam Member", "member"],
    ] as const) {
      const u = await registerUser(api, label.split(" ")[0]!.toLowerCase());
      await api("POST", `/orgs/${world.orgId}/members/add`, { token: world.owner.token, body: { user_id: u.userId, role } });
    }
    // the shared system's invites live 20 s (BB_INVITES_TTL, for the expiry tests): sent again
    // right before each picture of the list (the same addresses: a new invite replaces the pending one)
    const invitees = [uniqueEmail("new-tester"), uniqueEmail("contractor")];
    const invite = async () => {
      const invited = await api<{ created: unknown[]; skipped: Array<{ reason: string }> }>("POST", `/orgs/${world.orgId}/invites/bulk`, {
        token: world.owner.token,
        body: { emails: invitees, org_role: "member", team_assignments: [{ team_id: world.teamId, team_role: "member" }] },
      });
      // created, or still pending from the picture before
      expect(invited.body.created.length + invited.body.skipped.filter((s) => s.reason === "already_invited").length).toBe(2);
    };
    const signIn = (page: Parameters<typeof signInAfresh>[0]) => signInAfresh(page, api, world.owner.token, world.owner.email);
    const shots: Array<[string, string, string, number?]> = [
      ["orgs", "/orgs", "Your organizations"],
      ["org-settings", `/orgs/${world.orgId}/settings`, "How an inbox's TTL is chosen", 1000],
      ["org-members", `/orgs/${world.orgId}/members`, "Members"],
      ["org-invites", `/orgs/${world.orgId}/invites`, "Invite state", 1000],
    ];
    for (const [name, path, ready, height] of shots) {
      const files = await shootBoth(
        browser,
        system,
        name,
        async (page) => {
          await signIn(page);
          if (name === "org-invites") await invite();
          await page.goto(path);
          await page.getByLabel(ready).first().waitFor();
          if (name === "org-invites") await page.getByRole("table", { name: "Pending invites" }).getByRole("row").nth(2).waitFor();
        },
        { height: height ?? 800 },
      );
      expect(files.every((f) => existsSync(f))).toBe(true);
    }
    // the narrow layout
    const narrow = await shootBoth(
      browser,
      system,
      "org-members-narrow",
      async (page) => {
        await signIn(page);
        await page.goto(`/orgs/${world.orgId}/members`);
        await page.getByLabel("Members").first().waitFor();
      },
      { width: 360, height: 760 },
    );
    expect(narrow.every((f) => existsSync(f))).toBe(true);
  }, 240_000);
});
