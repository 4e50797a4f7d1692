import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { apiClient } from "./clients";
import { connectBrowser } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signInAfresh } from "./console/world";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

/**
 * Screenshots of the teams, domains and roles pages, light and dark (see console/screenshots.ts);
 * skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare` compares the
 * pictures with docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/).
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: teams, domains and roles screenshots", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  let dns: Awaited<ReturnType<typeof testDns>>;
  beforeAll(async () => {
    browser = await connectBrowser(system);
    dns = await testDns(system.ports.dns);
  });
  afterAll(async () => {
    await browser?.close();
    await dns?.close();
  });

  const shoot = async (name: string, open: (page: Page) => Promise<void>, options?: { width?: number; height?: number }) => {
    const files = await shootBoth(browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  /** An org with three teams (one archived), members, a trusted domain and two checked by DNS. */
  async function furnished() {
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    const orgPath = `/orgs/${world.orgId}`;
    for (const label of ["Dana", "Lee", "Sam"]) {
      const u = await registerUser(api, label);
      await api("POST", `${orgPath}/members/add`, { token, body: { user_id: u.userId, role: "member" } });
      await api("POST", `${orgPath}/teams/${world.teamId}/members`, { token, body: { user_id: u.userId, role: "member" } });
    }
    await api("PATCH", `${orgPath}/teams/${world.teamId}`, {
      token,
      body: { description: "Sign-up and checkout tests", settings: { default_inbox_ttl: "30m", max_inbox_ttl: "12h" } },
    });
    await createInbox(api, token, world.assignmentId, `shots-${randomBytes(3).toString("hex")}`);
    await api("POST", `${orgPath}/teams`, { token, body: { name: "Mobile", description: "App store review mailboxes" } });
    const old = await api<{ id: string }>("POST", `${orgPath}/teams`, { token, body: { name: "Legacy portal" } });
    await api("POST", `${orgPath}/teams/${old.body.id}/archive`, { token });
    const add = async (name: string) =>
      (
        await api<{ id: string; domain_name: string; mx_target: string; verification_record: string }>("POST", `${orgPath}/domains`, {
          token,
          body: { domain_name: name },
        })
      ).body;
    const mail = await add(`mail-${randomBytes(2).toString("hex")}.example-shots.test`);
    const staging = await add(`staging-${randomBytes(2).toString("hex")}.example-shots.test`);
    dns.zones.set(mail.domain_name, { mx: [`${mail.mx_target}.`], txt: [mail.verification_record] });
    dns.zones.set(staging.domain_name, { txt: [staging.verification_record] });
    await api("POST", `${orgPath}/domains/${mail.id}/verify`, { token });
    await api("POST", `${orgPath}/domains/${staging.id}/verify`, { token });
    return { world, stagingId: staging.id };
  }

  it("teams, domains and roles pages", async () => {
    const { world, stagingId } = await furnished();
    // every picture signs in anew, the earlier browser sessions ended
    const signIn = (page: Page) => signInAfresh(page, api, world.owner.token, world.owner.email);
    await shoot("teams", async (page) => {
      await signIn(page);
      await page.goto("/teams?archived=all");
      await page.getByRole("link", { name: "Legacy portal" }).waitFor();
    });
    await shoot(
      "team",
      async (page) => {
        await signIn(page);
        await page.goto(`/teams/${world.teamId}`);
        await page.getByRole("table", { name: "Team members" }).getByText("Sam", { exact: true }).waitFor();
        await page.getByRole("table", { name: "Assigned domains" }).waitFor();
      },
      { height: 1000 },
    );
    await shoot("team-delete-impact", async (page) => {
      await signIn(page);
      await page.goto(`/teams/${world.teamId}`);
      // the page settled (its tables loaded) before the click
      await page.getByRole("table", { name: "Team members" }).getByText("Sam", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Delete team" }).click();
      await page.getByRole("list", { name: "What deleting removes" }).waitFor();
    });
    await shoot("domains", async (page) => {
      await signIn(page);
      await page.goto("/domains");
      await page.getByRole("table").getByText("Partially verified").waitFor();
    });
    await shoot(
      "domain-verification",
      async (page) => {
        await signIn(page);
        await page.goto(`/domains/${stagingId}`);
        await page.getByRole("table", { name: "Verification history" }).waitFor();
      },
      { height: 1000 },
    );
    await shoot(
      "domain-verification-narrow",
      async (page) => {
        await signIn(page);
        await page.goto(`/domains/${stagingId}`);
        await page.getByRole("table", { name: "Verification history" }).waitFor();
      },
      { width: 360, height: 900 },
    );
    await shoot(
      "roles",
      async (page) => {
        await signIn(page);
        await page.goto("/roles");
        await page.getByRole("region", { name: "Team roles" }).waitFor();
      },
      { height: 1000 },
    );
  }, 600_000);
});
