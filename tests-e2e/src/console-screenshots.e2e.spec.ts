import { existsSync } from "node:fs";
import { apiClient } from "./clients";
import { attachConsole } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { mailWorld, signIn } from "./console/world";
import { SharedSystem } from "./shared-system";
import { registerUser, teamWithDomain } from "./world";

/**
 * Screenshots of the console's main pages, light and dark (see console/screenshots.ts); skipped
 * unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare` compares the
 * pictures with docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/), so `npm test` spends no time on them. Add a page: one more
 * `shoot(...)`.
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: screenshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  const shoot = async (name: string, open: Parameters<typeof shootBoth>[3], options?: Parameters<typeof shootBoth>[4]) => {
    const files = await shootBoth(ui.browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  it("login", () =>
    shoot("login", async (page) => {
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
    }));

  it("register", () =>
    shoot("register", async (page) => {
      await page.goto("/register");
      await page.getByRole("heading", { name: "Create your BurnBox account" }).waitFor();
    }));

  it("account", async () => {
    const world = await teamWithDomain(api);
    await shoot(
      "account",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto("/account");
        await page.getByRole("region", { name: "Sessions" }).getByText("this session").waitFor();
      },
      { height: 1100 },
    );
  });

  it("invitation", async () => {
    const mail = await mailWorld(api, system);
    const { inboxId, email } = await mail.address("invitee");
    expect(
      (await api("POST", `/orgs/${mail.world.orgId}/invites`, { token: mail.world.owner.token, body: { email, org_role: "member" } }))
        .status,
    ).toBe(201);
    const link = await mail.link(inboxId, "invited");
    await shoot("invite", async (page) => {
      await page.goto(link);
      await page.getByRole("heading", { name: /^Join Org / }).waitFor();
    });
  });

  it("account at 360 px", async () => {
    const user = await registerUser(api, "narrow");
    await shoot(
      "account-narrow",
      async (page) => {
        await signIn(page, user.email);
        await page.goto("/account");
        await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
      },
      { width: 360, height: 760 },
    );
  });
});
