import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { connectBrowser } from "./console/browser";
import { expectNoSidewaysScroll, NARROW, tabTo } from "./console/narrow";
import { signIn, userBrowser } from "./console/world";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain, type Api } from "./world";

/** The console's teams, domains and roles pages (issue 28, items 3 to 5) in Chromium against the shared system. */
describe("the console: teams, domains and roles", () => {
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

  /** Makes `user` a member of the org (role `role`), and of the team when `teamId` is given. */
  async function join(a: Api, owner: string, orgId: string, userId: string, role = "member", teamId?: string) {
    const added = await a("POST", `/orgs/${orgId}/members/add`, { token: owner, body: { user_id: userId, role } });
    expect(added.status).toBe(201);
    if (teamId) {
      const t = await a("POST", `/orgs/${orgId}/teams/${teamId}/members`, { token: owner, body: { user_id: userId, role: "member" } });
      expect(t.status).toBe(201);
    }
  }
  const inDialog = (page: Page, name: string | RegExp) => page.getByRole("dialog", { name });

  it("when a domain is added in the console, then it shows the MX and TXT records to create, and verifying after they are published turns it verified with its history", async () => {
    const owner = await registerUser(api, "dnsconsole");
    const org = await api<{ id: string }>("POST", "/orgs", { token: owner.token, body: { name: "DNS Console" } });
    expect(org.status).toBe(201);
    const name = `${randomBytes(4).toString("hex")}.dns-console.test`;
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, owner.email);
      await page.goto("/domains");
      await page.getByRole("heading", { name: "No domains" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Add domain" }).first().click();
      const add = inDialog(page, "Add a domain");
      await add.getByLabel("Domain name").fill(name);
      await add.getByRole("button", { name: "Add domain" }).click();

      // the verification page: the exact records, copyable
      await page.getByRole("heading", { name, level: 1 }).waitFor();
      const records = page.getByRole("region", { name: "DNS records to create" });
      const mxRow = records.getByRole("row").filter({ has: page.getByRole("cell", { name: "MX", exact: true }) });
      const txtRow = records.getByRole("row").filter({ hasText: "burnbox-verify=" });
      const mxTarget = (await mxRow.getByRole("cell").nth(2).innerText()).trim();
      const txtValue = (await txtRow.getByRole("cell").nth(2).innerText()).trim();
      expect(txtValue).toMatch(/^burnbox-verify=[0-9a-f]+$/);
      await records.getByRole("button", { name: "Copy the TXT record's value" }).waitFor();
      await records.getByRole("button", { name: "Copy the MX record's value" }).waitFor();
      // the page says what the API holds
      const held = await api<{ data: Array<{ verification_record: string; mx_target: string }> }>("GET", `/orgs/${org.body.id}/domains`, {
        token: owner.token,
      });
      expect(held.body.data[0]).toMatchObject({ verification_record: txtValue, mx_target: mxTarget });
      const checks = page.getByRole("region", { name: "Current result" });
      expect(await checks.getByText("Verified", { exact: true }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // publish the records, then verify now
      dns.zones.set(name, { mx: [`${mxTarget}.`], txt: [txtValue] });
      await page.getByRole("button", { name: "Verify now" }).click();
      await page.getByRole("status").filter({ hasText: "both records are in place" }).waitFor();
      await checks.getByText("Verified", { exact: true }).waitFor();
      await checks.getByLabel("MX record: found").waitFor();
      await checks.getByLabel("TXT record: found").waitFor();
      const history = page.getByRole("table", { name: "Verification history" });
      const manual = history.getByRole("row").filter({ hasText: "verify now" });
      await manual.getByLabel("MX: found").waitFor();
      await manual.getByLabel("TXT: found").waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // bulk: a second domain without records; both checked at once, then both deleted
      const other = `${randomBytes(4).toString("hex")}.dns-console.test`;
      expect((await api("POST", `/orgs/${org.body.id}/domains`, { token: owner.token, body: { domain_name: other } })).status).toBe(201);
      await page.goto("/domains");
      await page.getByRole("checkbox", { name: "Select every domain on this page" }).check();
      await page.getByRole("button", { name: "Verify selected (2)" }).click();
      const result = page.getByRole("status").filter({ hasText: "Checked 2 domains." });
      await result.getByText(`${name}: Verified`).waitFor();
      await result.getByText(`${other}: Failed`).waitFor();
      await page.getByRole("button", { name: "Delete selected (2)" }).click();
      await inDialog(page, "Delete domains?").getByRole("button", { name: "Delete" }).click();
      await page.getByRole("status").filter({ hasText: "Deleted 2 domains." }).waitFor();
      await page.getByRole("heading", { name: "No domains" }).waitFor();
      expect((await api<{ total: number }>("GET", `/orgs/${org.body.id}/domains`, { token: owner.token })).body.total).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("when the owner changes a domain on its page, then the description and the TTL tier are saved through PATCH, and a maximum above the org's shows the API's refusal and changes nothing", async () => {
    const world = await teamWithDomain(api);
    const token = world.owner.token;
    expect((await api("PATCH", `/orgs/${world.orgId}/settings`, { token, body: { max_inbox_ttl: "12h" } })).status).toBe(200);
    const listed = await api<{ data: Array<{ id: string }> }>("GET", `/orgs/${world.orgId}/domains`, { token });
    const domainId = listed.body.data[0]!.id;
    const held = async () =>
      (
        await api<{ description: string | null; settings: Record<string, unknown> }>("GET", `/orgs/${world.orgId}/domains/${domainId}`, {
          token,
        })
      ).body;
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/domains");
      await page.getByRole("link", { name: world.domainName }).click();
      await page.getByRole("heading", { name: world.domainName, level: 1 }).waitFor();
      const settings = page.getByRole("region", { name: "Settings" });
      expect(await seriousViolations(page)).toEqual([]);

      await settings.getByLabel("Description").fill("Sign-up tests of the web shop");
      await settings.getByRole("button", { name: "Save description" }).click();
      await settings.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      // the header shows the new description once the domain is read again
      await page.getByText("Sign-up tests of the web shop").first().waitFor();
      expect((await held()).description).toBe("Sign-up tests of the web shop");

      // above the org's maximum of 12h: the API's 400 shows, nothing changes
      await settings.getByRole("textbox", { name: "Maximum inbox lifetime" }).fill("2d");
      await settings.getByRole("button", { name: "Save settings" }).click();
      await settings.getByRole("alert").filter({ hasText: "may not exceed" }).waitFor();
      expect((await held()).settings).not.toHaveProperty("max_inbox_ttl");

      await settings.getByRole("textbox", { name: "Maximum inbox lifetime" }).fill("6h");
      await settings.getByRole("textbox", { name: "Default inbox lifetime" }).fill("1h");
      await settings.getByRole("button", { name: "Save settings" }).click();
      await settings.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect(await settings.getByRole("alert").count()).toBe(0);
      expect((await held()).settings).toMatchObject({ default_inbox_ttl: "1h", max_inbox_ttl: "6h" });
      expect(await seriousViolations(page)).toEqual([]);

      // a reload shows what is held
      await page.reload();
      await page.getByRole("region", { name: "Settings" }).getByRole("textbox", { name: "Maximum inbox lifetime" }).waitFor();
      expect(
        await page.getByRole("region", { name: "Settings" }).getByRole("textbox", { name: "Maximum inbox lifetime" }).inputValue(),
      ).toBe("6h");
      expect(await page.getByRole("region", { name: "Settings" }).getByLabel("Description").inputValue()).toBe(
        "Sign-up tests of the web shop",
      );
    } finally {
      await context.close();
    }
  });

  it("when a team is deleted, then the console first shows its impact report (members, inboxes, assignments), and the team is gone after the confirmation", async () => {
    const world = await teamWithDomain(api);
    await createInbox(api, world.owner.token, world.assignmentId, `impact-${randomBytes(3).toString("hex")}`);
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/teams");
      await page.getByRole("link", { name: "QA" }).click();
      await page.getByRole("heading", { name: "QA", level: 1 }).waitFor();
      await page.getByRole("table", { name: "Team members" }).getByText(world.owner.email).waitFor();
      await page.getByRole("table", { name: "Assigned domains" }).getByRole("link", { name: world.domainName }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // archive and restore
      await page.getByRole("button", { name: "Archive" }).click();
      await inDialog(page, "Archive QA?").getByRole("button", { name: "Archive" }).click();
      await page.getByText("This team is archived").waitFor();
      expect(await page.getByRole("button", { name: "Add members" }).count()).toBe(0);
      await page.getByRole("button", { name: "Restore" }).click();
      await page.getByRole("status").filter({ hasText: "QA is restored." }).waitFor();

      await page.getByRole("button", { name: "Delete team" }).click();
      const dialog = inDialog(page, "Delete QA?");
      const impact = dialog.getByRole("list", { name: "What deleting removes" });
      await impact.getByText("1 membership (the accounts stay)").waitFor();
      await impact.getByText("1 inbox (1 active) with 0 emails").waitFor();
      await impact.getByText("1 domain assignment (the domains stay)").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Delete team" }).click();
      await page.waitForURL("**/teams");
      await page.getByRole("heading", { name: "No teams" }).waitFor();
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token })).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it("when several addresses are pasted, then they are added to the team at once with the unknown one listed as skipped; selected members are removed at once", async () => {
    const world = await teamWithDomain(api);
    const people = [await registerUser(api, "bulka"), await registerUser(api, "bulkb"), await registerUser(api, "bulkc")];
    for (const p of people) await join(api, world.owner.token, world.orgId, p.userId);
    const stranger = `nobody-${randomBytes(3).toString("hex")}@example.test`;
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto(`/teams/${world.teamId}`);
      await page.getByRole("button", { name: "Add members" }).click();
      const dialog = inDialog(page, "Add members");
      // the org's members outside the team are offered
      await dialog.getByRole("button", { name: people[0]!.email }).click();
      await dialog.getByLabel("Email addresses").fill([people[0]!.email, `${people[1]!.email}, ${people[2]!.email}`, stranger].join("\n"));
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Add 4 members" }).click();
      const done = page.getByRole("status").filter({ hasText: "Added 3 members." });
      await done.getByText(new RegExp(`^${stranger}: skipped`)).waitFor();
      const table = page.getByRole("table", { name: "Team members" });
      for (const p of people) await table.getByText(p.email).waitFor();

      await page.getByRole("checkbox", { name: `Select ${people[0]!.email}` }).check();
      await page.getByRole("checkbox", { name: `Select ${people[1]!.email}` }).check();
      await page.getByRole("button", { name: "Remove selected (2)" }).click();
      await inDialog(page, "Remove 2 members?").getByRole("button", { name: "Remove" }).click();
      await page.getByRole("status").filter({ hasText: "Removed 2 members." }).waitFor();
      await table.getByText(people[0]!.email).waitFor({ state: "detached" });
      const left = await api<{ data: Array<{ email: string }> }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
        token: world.owner.token,
      });
      expect(left.body.data.map((m) => m.email).sort()).toEqual([world.owner.email, people[2]!.email].sort());
    } finally {
      await context.close();
    }
  });

  it("when a member without team or domain management opens the pages, then the controls are not offered; leaving is", async () => {
    const world = await teamWithDomain(api);
    const member = await registerUser(api, "plainmember");
    await join(api, world.owner.token, world.orgId, member.userId, "member", world.teamId);
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, member.email);
      await page.goto(`/teams/${world.teamId}`);
      await page.getByRole("heading", { name: "QA", level: 1 }).waitFor();
      await page.getByRole("table", { name: "Team members" }).getByText(member.email).waitFor();
      await page.getByText("Only the team's leads and the organization's owners and admins change its members.").waitFor();
      await page.getByRole("button", { name: "Leave team" }).waitFor();
      for (const name of ["Archive", "Delete team", "Transfer", "Add members", "Assign domain", "Save settings"])
        expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
      expect(await page.getByRole("checkbox").count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto("/domains");
      await page.getByRole("link", { name: world.domainName }).click();
      await page.getByRole("heading", { name: world.domainName, level: 1 }).waitFor();
      await page.getByText("Only owners and admins of the organization can check, delete or change a domain, or its settings.").waitFor();
      for (const name of ["Verify now", "Delete", "Transfer", "Save description", "Save settings"])
        expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
      expect(await page.getByRole("region", { name: "Settings" }).getByLabel("Description").isDisabled()).toBe(true);
      // and the API agrees with what is hidden
      const listed = await api<{ data: Array<{ id: string }> }>("GET", `/orgs/${world.orgId}/domains`, { token: member.token });
      const verifyAsMember = await api("POST", `/orgs/${world.orgId}/domains/${listed.body.data[0]!.id}/verify`, { token: member.token });
      expect(verifyAsMember.status).toBe(403);

      // leaving works from the page
      await page.goto(`/teams/${world.teamId}`);
      await page.getByRole("button", { name: "Leave team" }).click();
      await inDialog(page, "Leave QA?").getByRole("button", { name: "Leave team" }).click();
      await page.waitForURL("**/teams");
      await page.getByRole("heading", { name: "No teams" }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("when anyone opens the roles page, then the built-in roles show their permissions; a system admin creates, edits and deletes a custom team role whose new permission becomes an API-key scope", async () => {
    const user = await registerUser(api, "rolesreader");
    const admin = await registerAdmin(api, system);
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, user.email);
      await page.goto("/roles");
      const team = page.getByRole("region", { name: "Team roles" });
      const viewRow = team.getByRole("row").filter({ hasText: "team.webhooks.manage" });
      await viewRow.getByLabel("Lead: yes").waitFor();
      await viewRow.getByLabel("Member: no").waitFor();
      await page
        .getByRole("region", { name: "Organization roles" })
        .getByRole("row")
        .filter({ hasText: "org.delete" })
        .getByLabel("Owner: yes")
        .waitFor();
      expect(await page.getByRole("button", { name: "Create role" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }

    const suffix = randomBytes(3).toString("hex");
    const key = `team.reports${suffix.replace(/[0-9]/g, "x")}.view`;
    const label = `Reporter ${suffix}`;
    const second = await userBrowser(browser, system);
    try {
      const p = second.page;
      await signIn(p, admin.email);
      await p.goto("/roles");
      await p.getByRole("button", { name: "Create role" }).click();
      const form = inDialog(p, "Create a custom role");
      await form.getByRole("textbox", { name: /^Key/ }).fill(`reporter_${suffix}`);
      await form.getByRole("textbox", { name: /^Label/ }).fill(label);
      await form.getByLabel("Rank").fill("5");
      await form.getByRole("checkbox", { name: /\(team\.inboxes\.view\)/ }).check();
      await form.getByLabel("New team permission").fill(key);
      await form.getByRole("button", { name: "Add permission" }).click();
      await form.getByRole("checkbox", { name: `${key} (new)` }).waitFor();
      await form.getByText("A new team permission becomes a valid API-key scope at once").waitFor();
      expect(await seriousViolations(p)).toEqual([]);
      await form.getByRole("button", { name: "Create role" }).click();
      await p
        .getByRole("status")
        .filter({ hasText: `The role ${label} is created.` })
        .waitFor();
      const team = p.getByRole("region", { name: "Team roles" });
      await team.getByRole("row").filter({ hasText: key }).getByLabel(`${label}: yes`).waitFor();

      // the new permission is a scope an API key may hold
      const world = await teamWithDomain(api);
      const made = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: world.owner.token,
        body: { name: "reports", scopes: [key] },
      });
      expect(made.status).toBe(201);

      await p.getByRole("button", { name: `Edit ${label}` }).click();
      const edit = inDialog(p, `Edit ${label}`);
      await edit.getByRole("textbox", { name: /^Label/ }).fill(`${label} (renamed)`);
      await edit.getByRole("button", { name: "Save role" }).click();
      await p
        .getByRole("status")
        .filter({ hasText: `The role ${label} (renamed) is saved.` })
        .waitFor();

      await p.getByRole("button", { name: `Delete ${label} (renamed)` }).click();
      await inDialog(p, `Delete the role ${label} (renamed)?`).getByRole("button", { name: "Delete role" }).click();
      await p
        .getByRole("status")
        .filter({ hasText: `The role ${label} (renamed) is deleted.` })
        .waitFor();
      expect(await p.getByRole("button", { name: `Edit ${label} (renamed)` }).count()).toBe(0);
    } finally {
      await second.context.close();
    }
  });

  it("when a dialog that loads its content on opening is closed with Escape or Cancel, then the focus is back on the button that opened it, and the next opening starts afresh", async () => {
    const world = await teamWithDomain(api);
    const listed = await api<{ data: Array<{ id: string; domain_name: string }> }>("GET", `/orgs/${world.orgId}/domains`, {
      token: world.owner.token,
    });
    const domain = listed.body.data[0]!;
    const { context, page } = await userBrowser(browser, system);
    /** Opens the dialog from the keyboard, waits for `ready` in it, closes it with `close`, and expects the focus back on `opener`. */
    const roundTrip = async (
      opener: ReturnType<Page["getByRole"]>,
      dialogName: string | RegExp,
      ready: string,
      close: () => Promise<void>,
    ) => {
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = inDialog(page, dialogName);
      await dialog.getByText(ready).first().waitFor();
      await close();
      await dialog.waitFor({ state: "detached" });
      await opener.and(page.locator(":focus")).waitFor();
      return dialog;
    };
    try {
      await signIn(page, world.owner.email);

      // a team's "Assign domain": its list of verified domains is fetched when it opens
      await page.goto(`/teams/${world.teamId}`);
      const assign = page.getByRole("button", { name: "Assign domain" });
      await roundTrip(assign, /^Assign a domain to /, "Only verified domains can be assigned.", () => page.keyboard.press("Escape"));

      // a domain's "Delete": the impact report is fetched when it opens; Cancel closes it
      await page.goto(`/domains/${domain.id}`);
      const del = page.getByRole("button", { name: "Delete", exact: true });
      const dialog = await roundTrip(del, `Delete ${domain.domain_name}?`, "Deleting the domain removes:", () =>
        inDialog(page, `Delete ${domain.domain_name}?`).getByRole("button", { name: "Cancel" }).click(),
      );
      // opened again, it is a new dialog: the switch left on before is off
      await del.focus();
      await page.keyboard.press("Enter");
      await dialog.getByText("Deleting the domain removes:").waitFor();
      await page.keyboard.press("Escape");
      await del.and(page.locator(":focus")).waitFor();

      // the org's "Add existing user": a typed user id does not survive closing
      await page.goto(`/orgs/${world.orgId}/members`);
      const addUser = page.getByRole("button", { name: "Add existing user" });
      await roundTrip(addUser, "Add an existing user", "Adds an account that already exists", async () => {
        await inDialog(page, "Add an existing user").getByLabel("User id").fill("typed-before-closing");
        await page.keyboard.press("Escape");
      });
      await addUser.focus();
      await page.keyboard.press("Enter");
      expect(await inDialog(page, "Add an existing user").getByLabel("User id").inputValue()).toBe("");
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when the teams, domains and roles pages are used at 360 px in dark mode, then none scrolls sideways, and each main action is reached with Tab and works with Enter", async () => {
    const world = await teamWithDomain(api);
    const admin = await registerAdmin(api, system);
    const listed = await api<{ data: Array<{ id: string }> }>("GET", `/orgs/${world.orgId}/domains`, { token: world.owner.token });
    const { context, page } = await userBrowser(browser, system, { ...NARROW, colorScheme: "dark" });
    try {
      await signIn(page, world.owner.email);
      // teams: the list, a team's page; Create team opens its dialog from the keyboard
      await page.goto("/teams");
      await page.getByRole("link", { name: "QA" }).waitFor();
      await expectNoSidewaysScroll(page);
      const create = page.getByRole("button", { name: "Create team" }).first();
      await tabTo(page, create);
      await page.keyboard.press("Enter");
      const createDialog = inDialog(page, "Create a team");
      await createDialog.waitFor();
      await expectNoSidewaysScroll(page);
      await page.keyboard.press("Escape");
      await createDialog.waitFor({ state: "detached" });
      await create.and(page.locator(":focus")).waitFor();
      await page.goto(`/teams/${world.teamId}`);
      await page.getByRole("table", { name: "Team members" }).waitFor();
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);

      // domains: Add domain from the keyboard, through to the new domain's page
      await page.goto("/domains");
      await page.getByRole("link", { name: world.domainName }).waitFor();
      await expectNoSidewaysScroll(page);
      await tabTo(page, page.getByRole("button", { name: "Add domain" }).first());
      await page.keyboard.press("Enter");
      const add = inDialog(page, "Add a domain");
      await add.getByLabel("Domain name").and(page.locator(":focus")).waitFor();
      const name = `${randomBytes(4).toString("hex")}.narrow-console.test`;
      await page.keyboard.type(name);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name, level: 1 }).waitFor();
      await page.getByRole("region", { name: "DNS records to create" }).waitFor();
      await expectNoSidewaysScroll(page);
      await page.goto(`/domains/${listed.body.data[0]!.id}`);
      await page.getByRole("region", { name: "Verification history" }).getByText("No checks yet.").waitFor();
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }

    // roles: a system admin's Create role
    const asAdmin = await userBrowser(browser, system, { ...NARROW, colorScheme: "dark" });
    try {
      await signIn(asAdmin.page, admin.email);
      await asAdmin.page.goto("/roles");
      await asAdmin.page.getByRole("region", { name: "Team roles" }).waitFor();
      await expectNoSidewaysScroll(asAdmin.page);
      await tabTo(asAdmin.page, asAdmin.page.getByRole("button", { name: "Create role" }));
      await asAdmin.page.keyboard.press("Enter");
      const form = inDialog(asAdmin.page, "Create a custom role");
      await form.waitFor();
      await expectNoSidewaysScroll(asAdmin.page);
      await asAdmin.page.keyboard.press("Escape");
      await form.waitFor({ state: "detached" });
      expect(await seriousViolations(asAdmin.page)).toEqual([]);
    } finally {
      await asAdmin.context.close();
    }
  });
});
