import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { mailWorld, signIn, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { newClientIp, registerUser, STRONG_PASSWORD, type Tokens } from "./world";

/** Invitations opened from the mail, and the account page, in Chromium against the shared system. */
describe("the console: invitations and the account page", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  it("when an invitee follows the mailed link, then the console previews the invitation and creating an account with it joins the org", async () => {
    const mail = await mailWorld(api, system);
    const { inboxId, email } = await mail.address("invitee");
    const invited = await api("POST", `/orgs/${mail.world.orgId}/invites`, {
      token: mail.world.owner.token,
      body: { email, org_role: "member" },
    });
    expect(invited.status).toBe(201);
    const link = await mail.link(inboxId, "invited");
    expect(link).toMatch(new RegExp(`^${system.gatewayUrl}/invites/[0-9a-f]{64}$`));

    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await page.goto(link);
      await page.getByRole("heading", { name: /^Join Org / }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.getByLabel("Email").inputValue()).toBe(email);
      await page.getByLabel("Name").fill("Invitee");
      await page.getByRole("textbox", { name: "Password", exact: true }).fill(STRONG_PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("button", { name: "Account menu for Invitee" }).waitFor();
      // the org is the console's workspace now
      await page.getByRole("combobox", { name: "Organisation" }).waitFor();
      expect(await page.getByRole("combobox", { name: "Organisation" }).inputValue()).toMatch(/^Org /);

      const members = await api<{ data: Array<{ email: string; role: string }> }>("GET", `/orgs/${mail.world.orgId}/members`, {
        token: mail.world.owner.token,
      });
      expect(members.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ email: email.toLowerCase(), role: "member" })]));
    } finally {
      await context.close();
    }
  });

  it("when a signed-out user with an account follows the mailed link, then they sign in from the invitation and accept it", async () => {
    const mail = await mailWorld(api, system);
    const { inboxId, email } = await mail.address("member");
    const registered = await api<{ tokens: Tokens }>("POST", "/auth/register", {
      body: { email, password: STRONG_PASSWORD, display_name: "Existing" },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(registered.status).toBe(201);
    const invited = await api("POST", `/orgs/${mail.world.orgId}/invites`, {
      token: mail.world.owner.token,
      body: { email, org_role: "admin" },
    });
    expect(invited.status).toBe(201);
    const link = await mail.link(inboxId, "invited");
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await page.goto(link);
      await page.getByRole("link", { name: "I have an account: sign in to accept" }).click();
      await page.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByRole("textbox", { name: "Password", exact: true }).fill(STRONG_PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Accept the invitation" }).click();
      await page.getByRole("button", { name: /^Account menu for / }).waitFor();
      await page.getByRole("combobox", { name: "Organisation" }).waitFor();
      const mine = await api<{ data: Array<{ id: string; role: string }> }>("GET", "/orgs", { token: registered.body.tokens.access_token });
      expect(mine.body.data).toEqual([expect.objectContaining({ id: mail.world.orgId, role: "admin" })]);
    } finally {
      await context.close();
    }
  });

  it("when a user manages the account, then the profile, sessions, password and deletion each take effect", async () => {
    const user = await registerUser(api, "account");
    const other = await api<{ tokens: Tokens }>("POST", "/auth/login", {
      body: { email: user.email, password: STRONG_PASSWORD },
      headers: { "x-forwarded-for": newClientIp(), "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" },
    });
    expect(other.status).toBe(200);
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, user.email);
      await page.getByRole("button", { name: /^Account menu for / }).click();
      await page.getByRole("menuitem", { name: "Account" }).click();
      await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // profile: the new name shows in the header
      await page.getByLabel("Name").fill("Renamed");
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByRole("button", { name: "Account menu for Renamed" }).waitFor();
      expect((await api<{ display_name: string }>("GET", "/auth/me", { token: user.token })).body.display_name).toBe("Renamed");

      // sessions: the other one (Firefox) is listed and signed out from here
      const sessions = page.getByRole("region", { name: "Sessions" });
      await sessions.getByText("this session").waitFor();
      await sessions.getByRole("button", { name: /^Sign out Firefox on Linux/ }).click();
      await sessions.getByRole("button", { name: /^Sign out Firefox on Linux/ }).waitFor({ state: "detached" });
      expect((await api("GET", "/auth/me", { token: other.body.tokens.access_token })).status).toBe(401);

      // password: a wrong current password shows the API's message; the right one changes it
      const password = page.getByRole("region", { name: "Password" });
      await password.getByLabel("Current password").fill("Not-The-Password-1");
      await password.getByRole("textbox", { name: "New password", exact: true }).fill("Another-Horse-77");
      await password.getByRole("button", { name: "Change password" }).click();
      await password.getByRole("alert").waitFor();
      await password.getByLabel("Current password").fill(STRONG_PASSWORD);
      await password.getByRole("button", { name: "Change password" }).click();
      await password.getByRole("alert").waitFor({ state: "detached" });
      await page.getByText("Password changed; your other sessions were signed out.").waitFor();
      const relogin = await api("POST", "/auth/login", {
        body: { email: user.email, password: "Another-Horse-77" },
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(relogin.status).toBe(200);

      // deletion: confirmed with the password, then the login page; the account is gone
      await page.getByRole("button", { name: "Delete my account" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete your account?" });
      await dialog.getByRole("textbox", { name: "Password", exact: true }).fill("Another-Horse-77");
      await dialog.getByRole("button", { name: "Delete account" }).click();
      await page.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
      const gone = await api("POST", "/auth/login", {
        body: { email: user.email, password: "Another-Horse-77" },
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(gone.status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
