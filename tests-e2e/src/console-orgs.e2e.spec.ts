import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { connectBrowser } from "./console/browser";
import { expectNoSidewaysScroll, NARROW, tabTo } from "./console/narrow";
import { mailWorld, signIn, uniqueEmail, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { registerUser, STRONG_PASSWORD, teamWithDomain, type Api } from "./world";

/** Organizations in the console (settings, members by rank, invites) in Chromium against the shared system. */
describe("the console: organizations, members and invites", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectBrowser(system);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const rowOf = (page: Page, table: string, text: string) =>
    page.getByRole("table", { name: table }).getByRole("row").filter({ hasText: text });

  /** The invite list's state filter (a segmented control: its label is what a person clicks). */
  const stateFilter = (page: Page, state: string) => page.locator("label").filter({ hasText: new RegExp(`^${state}$`) });
  /** A registered user added to the org with `role` through the API. */
  async function memberOf(a: Api, orgId: string, ownerToken: string, role: string, label: string) {
    const user = await registerUser(a, label);
    const added = await a("POST", `/orgs/${orgId}/members/add`, { token: ownerToken, body: { user_id: user.userId, role } });
    expect(added.status).toBe(201);
    return user;
  }
  const roleIn = async (orgId: string, token: string, email: string) => {
    const res = await api<{ data: Array<{ email: string; role: string }> }>(
      "GET",
      `/orgs/${orgId}/members?q=${encodeURIComponent(email)}`,
      { token },
    );
    return res.body.data.find((m) => m.email === email)?.role;
  };

  it("when the owner invites an address, then the mail arrives, the invitee joins through its link, and the invite shows accepted", async () => {
    const mw = await mailWorld(api, system);
    const { world } = mw;
    const invitee = await mw.address("invitee");
    const owner = await userBrowser(browser, system);
    const guest = await userBrowser(browser, system);
    try {
      await signIn(owner.page, world.owner.email);
      await owner.page.goto(`/orgs/${world.orgId}/invites`);
      await owner.page.getByRole("heading", { name: /: Invites$/ }).waitFor();
      await owner.page.getByRole("heading", { name: "No pending invites" }).waitFor();
      expect(await seriousViolations(owner.page)).toEqual([]);

      await owner.page.getByRole("textbox", { name: "Email address", exact: true }).fill(invitee.email);
      await owner.page.getByRole("button", { name: "Send invite", exact: true }).click();
      const pending = rowOf(owner.page, "Pending invites", invitee.email);
      await pending.getByText("Pending").waitFor();

      // the mail comes through the system's own SMTP intake; its link opens the invite page
      const link = await mw.link(invitee.inboxId, "You are invited");
      expect(link).toMatch(/\/invites\/[0-9a-f]{64}$/);
      await guest.page.goto(link);
      await guest.page.getByRole("heading", { name: `Join Org ` }).waitFor();
      expect(await seriousViolations(guest.page)).toEqual([]);
      await guest.page.getByLabel("Name").fill("Invited Person");
      await guest.page.getByRole("textbox", { name: "Password", exact: true }).fill(STRONG_PASSWORD);
      await guest.page.getByRole("button", { name: "Create account" }).click();
      await guest.page.getByRole("button", { name: /^Account menu for / }).waitFor();

      // the owner sees it accepted, and the invitee among the members
      await stateFilter(owner.page, "Accepted").click();
      await rowOf(owner.page, "Accepted invites", invitee.email).getByText("Accepted").waitFor();
      await owner.page.getByRole("tab", { name: "Members" }).click();
      await rowOf(owner.page, "Members", invitee.email).waitFor();
      expect(await roleIn(world.orgId, world.owner.token, invitee.email)).toBe("member");
    } finally {
      await owner.context.close();
      await guest.context.close();
    }
  });

  it("when addresses are pasted in bulk, then each skipped one says why, and a revoked invite's state shows", async () => {
    const world = await teamWithDomain(api);
    const member = await memberOf(api, world.orgId, world.owner.token, "member", "already");
    const [a, b] = [uniqueEmail("bulk-a"), uniqueEmail("bulk-b")];
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto(`/orgs/${world.orgId}/invites`);
      await page.getByLabel("Email addresses").fill(`${a}, ${a}\n${member.email}; ${b}`);
      await page.getByRole("button", { name: "Send 4 invites" }).click();
      const outcome = page.getByRole("status").filter({ hasText: "2 invited, 2 skipped" });
      await outcome.getByText(`${a}: listed twice`).waitFor();
      await outcome.getByText(`${member.email}: already a member`).waitFor();
      await rowOf(page, "Pending invites", a).waitFor();
      await rowOf(page, "Pending invites", b).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: `Revoke the invite to ${b}` }).click();
      await page.getByRole("dialog", { name: "Revoke this invite?" }).getByRole("button", { name: "Revoke" }).click();
      await rowOf(page, "Pending invites", b).waitFor({ state: "detached" });
      await stateFilter(page, "Revoked").click();
      await rowOf(page, "Revoked invites", b).getByText("Revoked").waitFor();
      const revoked = await api<{ data: Array<{ email: string }> }>("GET", `/orgs/${world.orgId}/invites?status=revoked`, {
        token: world.owner.token,
      });
      expect(revoked.body.data.map((i) => i.email)).toEqual([b]);
    } finally {
      await context.close();
    }
  });

  it("when an admin manages members, then roles are offered only within the rank rules, a change works, and the API's refusal is shown", async () => {
    const world = await teamWithDomain(api);
    const admin = await memberOf(api, world.orgId, world.owner.token, "admin", "admin");
    const first = await memberOf(api, world.orgId, world.owner.token, "member", "first");
    const second = await memberOf(api, world.orgId, world.owner.token, "member", "second");
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, admin.email);
      await page.goto(`/orgs/${world.orgId}/members`);
      const ownerRow = rowOf(page, "Members", world.owner.email);
      await ownerRow.getByText("Owner", { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // the owner ranks above: no role control, no deactivation
      expect(await ownerRow.getByRole("combobox").count()).toBe(0);
      expect(await ownerRow.getByRole("button", { name: /Deactivate/ }).count()).toBe(0);

      // a member ranks below: admin and member are offered, never owner
      await page.getByRole("combobox", { name: `Role of ${first.email}` }).click();
      const options = await page.getByRole("option").allTextContents();
      expect(options.sort()).toEqual(["Admin", "Member"]);
      await page.getByRole("option", { name: "Admin" }).click();
      await page.getByText(`${first.email} is now Admin`).waitFor();
      expect(await roleIn(world.orgId, world.owner.token, first.email)).toBe("admin");
      // now of the same rank: no control any more
      await rowOf(page, "Members", first.email).getByText("Admin", { exact: true }).waitFor();
      expect(await rowOf(page, "Members", first.email).getByRole("combobox").count()).toBe(0);

      // the owner demotes the admin meanwhile: the API refuses the next change, and the page says why
      const demoted = await api("PATCH", `/orgs/${world.orgId}/members/${admin.userId}`, {
        token: world.owner.token,
        body: { role: "member" },
      });
      expect(demoted.status).toBe(200);
      const refusal = await api<{ error: string }>("PATCH", `/orgs/${world.orgId}/members/${second.userId}`, {
        token: admin.token,
        body: { role: "admin" },
      });
      expect(refusal.status).toBe(403);
      await page.getByRole("combobox", { name: `Role of ${second.email}` }).click();
      await page.getByRole("option", { name: "Admin" }).click();
      const alert = page.getByRole("alert").filter({ hasText: "Not allowed" });
      await alert.getByText(refusal.body.error).waitFor();
      expect(await roleIn(world.orgId, world.owner.token, second.email)).toBe("member");
    } finally {
      await context.close();
    }
  });

  it("when a member without management permissions opens the org, then no management control is offered and settings are read only", async () => {
    const world = await teamWithDomain(api);
    const member = await memberOf(api, world.orgId, world.owner.token, "member", "plain");
    const other = await memberOf(api, world.orgId, world.owner.token, "member", "other");
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, member.email);
      await page.goto(`/orgs/${world.orgId}/members`);
      await rowOf(page, "Members", other.email).waitFor();
      await rowOf(page, "Members", world.owner.email).waitFor();
      expect(await page.getByRole("table", { name: "Members" }).getByRole("combobox").count()).toBe(0);
      expect(await page.getByRole("button", { name: /Deactivate/ }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Add existing user" }).count()).toBe(0);
      // leaving is everyone's right, and only for oneself
      expect(await page.getByRole("button", { name: "Leave the organization" }).count()).toBe(1);
      expect(await page.getByRole("tab", { name: "Invites" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      // the API agrees with what the page leaves out
      const refused = await api("PATCH", `/orgs/${world.orgId}/members/${other.userId}`, { token: member.token, body: { role: "member" } });
      expect(refused.status).toBe(403);

      await page.goto(`/orgs/${world.orgId}/invites`);
      await page.getByText("Not available to your role").waitFor();
      expect(await page.getByRole("button", { name: "Send invite" }).count()).toBe(0);

      await page.goto(`/orgs/${world.orgId}/settings`);
      await page.getByText("Read only").waitFor();
      await page.getByRole("region", { name: "How an inbox's TTL is chosen" }).waitFor();
      expect(await page.getByRole("button", { name: /^Save/ }).count()).toBe(0);
      expect(await page.getByRole("textbox", { name: "Default TTL" }).getAttribute("readonly")).not.toBeNull();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when a user creates an org, works in it and sets its TTLs, then the cascade is explained and a default above the maximum is caught", async () => {
    const user = await registerUser(api, "creator");
    const name = `Made ${randomBytes(3).toString("hex")}`;
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, user.email);
      await page.goto("/orgs");
      await page.getByRole("heading", { name: "No organization yet" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Create organization" }).first().click();
      await page.getByRole("dialog", { name: "Create an organization" }).getByLabel("Name").fill(name);
      await page.getByRole("dialog", { name: "Create an organization" }).getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: `${name}: Settings` }).waitFor();
      // the header's switcher works in the new org
      await waitFor(async () => (await page.getByRole("combobox", { name: "Organisation" }).inputValue()) === name, {
        what: "the new org chosen in the header",
      });

      const ttl = page.getByRole("region", { name: "How an inbox's TTL is chosen" });
      await page.getByRole("textbox", { name: "Default TTL" }).fill("2h");
      await page.getByRole("textbox", { name: "Maximum TTL" }).fill("1h");
      await page.getByText("Longer than the maximum TTL").waitFor();
      await page.getByRole("textbox", { name: "Maximum TTL" }).fill("12h");
      await ttl.getByText(/inboxes live 2 h unless .* effective maximum is 12 h/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings saved").waitFor();
      const orgs = await api<{ data: Array<{ id: string; name: string }> }>("GET", "/orgs", { token: user.token });
      const made = orgs.body.data.find((o) => o.name === name)!;
      const settings = await api<{ default_inbox_ttl: string; max_inbox_ttl: string }>("GET", `/orgs/${made.id}/settings`, {
        token: user.token,
      });
      expect(settings.body).toMatchObject({ default_inbox_ttl: "2h", max_inbox_ttl: "12h" });

      await page.goto("/orgs");
      await rowOf(page, "Your organizations", name).getByText("Working in").waitFor();
    } finally {
      await context.close();
    }
  });

  it("when the org pages are used at 360 px in dark mode, then none scrolls sideways, and the main actions are reached with Tab and opened with Enter", async () => {
    const world = await teamWithDomain(api);
    await api("POST", `/orgs/${world.orgId}/invites`, {
      token: world.owner.token,
      body: { email: uniqueEmail("narrow"), org_role: "member" },
    });
    const { context, page } = await userBrowser(browser, system, { ...NARROW, colorScheme: "dark" });
    try {
      await signIn(page, world.owner.email);
      for (const [path, ready] of [
        ["/orgs", "Your organizations"],
        [`/orgs/${world.orgId}/settings`, "How an inbox's TTL is chosen"],
        [`/orgs/${world.orgId}/members`, "Members"],
        [`/orgs/${world.orgId}/invites`, "Invite state"],
      ] as const) {
        await page.goto(path);
        await page.getByLabel(ready).first().waitFor();
        await expectNoSidewaysScroll(page);
      }
      // the invites page's main action: the invite form's submit, from the keyboard
      const address = uniqueEmail("keyboard");
      await page.getByRole("textbox", { name: "Email address", exact: true }).fill(address);
      await tabTo(page, page.getByRole("button", { name: "Send invite", exact: true }));
      await page.keyboard.press("Enter");
      await rowOf(page, "Pending invites", address).getByText("Pending").waitFor();

      await page.goto("/orgs");
      await page.getByLabel("Your organizations").first().waitFor();
      const create = page.getByRole("button", { name: "Create organization" }).first();
      await tabTo(page, create);
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Create an organization" });
      await dialog.getByLabel("Name").and(page.locator(":focus")).waitFor();
      await expectNoSidewaysScroll(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await create.and(page.locator(":focus")).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
