import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import type { BrowserContext, Page } from "playwright-core";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { expectNoSidewaysScroll, NARROW } from "./console/narrow";
import { signIn, userBrowser } from "./console/world";
import { mimeMessage, sendRaw } from "./console-mail-fixtures";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

type World = Awaited<ReturnType<typeof teamWithDomain>>;
type Snapshot = { id: string; name: string; email_id: string; latest_comparison: { id: string; email_id: string; match: boolean } | null };

const FROM = "noreply@acme.example";

/** A made-up app's welcome mail; `broken` drops the help link and turns the button red. */
function welcome(to: string, subject: string, broken: boolean): string {
  const html = [
    "<!doctype html><html><head><style>",
    `.btn { background: ${broken ? "#d32f2f" : "#1a73e8"}; color: #ffffff; padding: 12px 20px; }`,
    "</style></head><body>",
    "<h1>Welcome to Acme</h1>",
    '<p><a class="btn" href="https://app.acme.test/start">Get started</a></p>',
    broken ? "" : '<p><a href="https://app.acme.test/help">Help centre</a></p>',
    "</body></html>",
  ].join("\n");
  const text = broken
    ? "Welcome to Acme\nGet started: https://app.acme.test/start\n"
    : "Welcome to Acme\nGet started: https://app.acme.test/start\nHelp: https://app.acme.test/help\n";
  return mimeMessage({ from: FROM, to, subject, text, html });
}

/**
 * A team's Snapshots pages in Chromium (extensions section 12): the list, one baseline against its
 * latest comparison with the diff pictures, re-baseline from the compared mail, delete behind the
 * shared confirmation, and the write actions left out for a role without `team.snapshots.manage`.
 */
describe("the console: a team's mail snapshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: World;
  let context: BrowserContext;
  let page: Page;
  let team: string;
  let snapshot: Snapshot;
  let secondEmail: string;
  const name = `welcome-${randomBytes(3).toString("hex")}`;

  beforeAll(async () => {
    world = await teamWithDomain(api);
    team = `/orgs/${world.orgId}/teams/${world.teamId}`;
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `snap-${randomBytes(3).toString("hex")}`);
    const arrive = async (subject: string, broken: boolean) => {
      await sendRaw(system.ports.smtp, FROM, inbox.full_address, welcome(inbox.full_address, subject, broken));
      return waitFor(
        async () =>
          (
            await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token })
          ).body.data.find((e) => e.subject === subject)?.id,
        { timeoutMs: 20_000, what: subject },
      );
    };
    const first = await arrive("Welcome to Acme", false);
    const made = await api<Snapshot>("POST", `${team}/snapshots`, { token: world.owner.token, body: { name, email_id: first } });
    if (made.status !== 201) throw new Error(`snapshot: ${made.status} ${JSON.stringify(made.body)}`);
    snapshot = made.body;
    secondEmail = await arrive("Welcome to Acme!", true);
    const compared = await api<{ match: boolean }>("POST", `/emails/${secondEmail}/compare`, {
      token: world.owner.token,
      body: { snapshot: name },
    });
    expect(compared.status).toBe(200);
    expect(compared.body.match).toBe(false);
    ({ context, page } = await userBrowser(ui.browser, system));
    await signIn(page, world.owner.email);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
  });

  it("when the list opens, then the snapshot is a row that says its latest comparison differs, and its page shows the baseline against the latest with the diff pictures", async () => {
    await page.goto("/snapshots");
    const row = page.getByTestId("snapshot-row").filter({ hasText: name });
    await row.waitFor();
    await expect(row.getByTestId("comparison-match").textContent()).resolves.toBe("Differs");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("link", { name }).click();
    await page.getByRole("heading", { level: 1, name }).waitFor();
    const found = page.getByRole("table", { name: "What the comparison found" });
    await expect(found.getByRole("row").filter({ hasText: "Subject" }).textContent()).resolves.toContain("latest Welcome to Acme!");
    await expect(page.getByTestId("link-changes").textContent()).resolves.toContain("removed");
    await expect(page.getByTestId("link-changes").textContent()).resolves.toContain("https://app.acme.test/help");
    // every width and scheme of the comparison, each with its three pictures fetched with the session's token
    await expect(page.getByTestId("visual").count()).resolves.toBe(4);
    const pictures = page.getByRole("region", { name: "Pictures at 600 px, light" });
    for (const alt of ["Baseline at 600 px, light", "Latest mail at 600 px, light", "Changed pixels at 600 px, light"]) {
      const img = pictures.getByRole("img", { name: alt });
      await img.waitFor({ timeout: 30_000 });
      await expect(img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBe(600);
    }
    await expect(pictures.getByTestId("changed-ratio").textContent()).resolves.toMatch(/^[\d.]+ % changed$/);
    expect(await seriousViolations(page)).toEqual([]);
    // at a phone's width nothing scrolls sideways
    await page.setViewportSize(NARROW);
    try {
      await page.reload();
      await page.getByRole("img", { name: "Changed pixels at 375 px, dark" }).waitFor({ timeout: 30_000 });
      await expectNoSidewaysScroll(page);
      await page.goto("/snapshots");
      await page.getByTestId("snapshot-row").first().waitFor();
      await expectNoSidewaysScroll(page);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("when Re-baseline is saved, then the baseline is the compared mail; when Delete is confirmed, then the list is empty", async () => {
    await page.goto(`/snapshots/${snapshot.id}`);
    await page.getByRole("button", { name: "Re-baseline" }).click();
    const dialog = page.getByRole("dialog", { name: `Re-baseline ${name}` });
    // the latest compared mail is filled in
    await expect(dialog.getByLabel("Email ID").inputValue()).resolves.toBe(secondEmail);
    await dialog.getByLabel("Email ID").fill("not-an-id");
    await dialog.getByRole("button", { name: "Save new baseline" }).click();
    await expect(dialog.getByLabel("Email ID").getAttribute("aria-invalid")).resolves.toBe("true");
    await dialog.getByLabel("Email ID").fill(secondEmail);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Save new baseline" }).click();
    await dialog.waitFor({ state: "detached" });
    await waitFor(
      async () =>
        (await api<Snapshot>("GET", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token })).body.email_id === secondEmail,
      { what: "the new baseline" },
    );

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: `Delete the snapshot ${name}?` });
    await confirm.getByRole("button", { name: "Delete snapshot" }).click();
    await page.waitForURL(/\/snapshots$/);
    await page.getByText("No snapshots yet").waitFor();
    expect((await api("GET", `${team}/snapshots/${snapshot.id}`, { token: world.owner.token })).status).toBe(404);
  });

  it("when a team member without team.snapshots.manage opens a snapshot, then it is shown without Re-baseline or Delete", async () => {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `snap2-${randomBytes(3).toString("hex")}`);
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, welcome(inbox.full_address, "Welcome again", false));
    const id = await waitFor(
      async () =>
        (await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token })).body.data[0]?.id,
      { timeoutMs: 20_000, what: "the mail" },
    );
    const made = await api<Snapshot>("POST", `${team}/snapshots`, { token: world.owner.token, body: { name: `${name}-2`, email_id: id } });
    expect(made.status).toBe(201);
    const member = await registerUser(api, "member");
    const body = { user_id: member.userId, role: "member" };
    expect((await api("POST", `/orgs/${world.orgId}/members/add`, { token: world.owner.token, body })).status).toBe(201);
    expect((await api("POST", `${team}/members`, { token: world.owner.token, body })).status).toBe(201);

    const { context: ctx, page: p } = await userBrowser(ui.browser, system);
    try {
      await signIn(p, member.email);
      await p.goto(`/snapshots/${made.body.id}`);
      await p.getByRole("heading", { level: 1, name: `${name}-2` }).waitFor();
      // not compared yet: the baseline's own pictures
      await p.getByRole("img", { name: "Baseline at 375 px, dark" }).waitFor({ timeout: 30_000 });
      await p.waitForLoadState("networkidle");
      await expect(p.getByRole("button", { name: "Re-baseline" }).count()).resolves.toBe(0);
      await expect(p.getByRole("button", { name: "Delete", exact: true }).count()).resolves.toBe(0);
      expect(await seriousViolations(p)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
