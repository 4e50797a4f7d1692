import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Browser, Locator, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { connectBrowser } from "./console/browser";
import { expectNoSidewaysScroll, NARROW, tabTo } from "./console/narrow";
import { signIn, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain } from "./world";

interface Entry {
  id: string;
  org_id: string | null;
  actor_email: string | null;
  action: string;
  category: string;
  resource_id: string | null;
  resource_name: string | null;
}

const CSV_COLUMNS = [
  "id",
  "created_at",
  "org_id",
  "actor_id",
  "actor_email",
  "actor_type",
  "action",
  "severity",
  "category",
  "resource_type",
  "resource_id",
  "resource_name",
  "ip_address",
  "user_agent",
  "metadata",
];

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The audit log and analytics pages of the console (issue 28, items 6 and 7) in Chromium against the shared system. */
describe("the console: audit log and analytics", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  let downloads: string;

  beforeAll(async () => {
    browser = await connectBrowser(system);
    downloads = mkdtempSync(path.join(tmpdir(), "bb-audit-"));
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(downloads, { recursive: true, force: true });
  });

  const hex = () => randomBytes(3).toString("hex");
  const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
  const auditRows = (page: Page) => page.getByRole("table", { name: "Audit entries" }).locator("tbody tr");
  /** Waits until the org's log holds `action` on `resourceId` (entries are stored from events, a moment later). */
  const logged = (w: { orgId: string; owner: { token: string } }, action: string, resourceId: string) =>
    waitFor(
      async () => {
        const r = await api<{ total: number }>("GET", `/orgs/${w.orgId}/audit?action=${action}&resource_id=${resourceId}`, {
          token: w.owner.token,
        });
        return r.status === 200 && r.body.total > 0;
      },
      { what: `${action} in the audit log` },
    );
  /** Chooses an export format from the Export menu and gives back the file's name and text. */
  async function exportAs(page: Page, format: "CSV (spreadsheets)" | "JSON") {
    await page.getByRole("button", { name: "Export" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: format }).click()]);
    const file = path.join(downloads, `${hex()}-${download.suggestedFilename()}`);
    await download.saveAs(file);
    return { name: download.suggestedFilename(), text: readFileSync(file, "utf8") };
  }

  it("when the owner exports the log as CSV and JSON, then the files hold the test's own actions with the contract's columns, and a filtered export only the matching rows", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `audit-${hex()}`);
    const keyName = `export probe ${hex()}`;
    const key = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: keyName, scopes: ["team.inboxes.view"] },
    });
    expect(key.status).toBe(201);
    await logged(world, "inbox.created", inbox.id);
    await logged(world, "apikey.created", key.body.id);

    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await nav(page).getByRole("link", { name: "Audit log" }).click();
      await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
      // readable rows: who, what, on what, from where
      const keyRow = auditRows(page).filter({ hasText: keyName });
      await keyRow.getByText("API key created").waitFor();
      await keyRow.getByText(world.owner.email).waitFor();
      await auditRows(page).filter({ hasText: inbox.full_address }).getByText("Inbox created").waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      const csv = await exportAs(page, "CSV (spreadsheets)");
      expect(csv.name).toMatch(/^audit-[a-z0-9-]+-\d{8}-\d{6}\.csv$/);
      await page
        .getByRole("status")
        .filter({ hasText: `Downloaded ${csv.name}` })
        .waitFor();
      const [head, ...rows] = parseCsv(csv.text.trim());
      expect(head).toEqual(CSV_COLUMNS);
      const cell = (row: string[], name: string) => row[CSV_COLUMNS.indexOf(name)];
      const keyLine = rows.find((r) => cell(r, "action") === "apikey.created");
      expect(
        keyLine && [cell(keyLine, "resource_id"), cell(keyLine, "resource_name"), cell(keyLine, "actor_email"), cell(keyLine, "org_id")],
      ).toEqual([key.body.id, keyName, world.owner.email, world.orgId]);
      const inboxLine = rows.find((r) => cell(r, "action") === "inbox.created");
      expect(inboxLine && cell(inboxLine, "resource_id")).toBe(inbox.id);
      expect(rows.every((r) => cell(r, "org_id") === world.orgId)).toBe(true);

      const json = await exportAs(page, "JSON");
      expect(json.name).toMatch(/^audit-[a-z0-9-]+-\d{8}-\d{6}\.json$/);
      const entries = JSON.parse(json.text) as Entry[];
      expect(entries.map((e) => e.id).sort()).toEqual(rows.map((r) => cell(r, "id")).sort());
      expect(entries.find((e) => e.action === "apikey.created")).toMatchObject({ resource_id: key.body.id, resource_name: keyName });

      // the export follows the filters on screen
      await page.getByRole("form", { name: "Audit filters" }).getByRole("combobox", { name: "Category" }).click();
      await page.getByRole("option", { name: "API keys" }).click();
      await page.waitForURL(/[?&]category=apikey/);
      await auditRows(page).filter({ hasText: inbox.full_address }).waitFor({ state: "detached" });
      const filtered = JSON.parse((await exportAs(page, "JSON")).text) as Entry[];
      expect(filtered.map((e) => [e.category, e.action])).toEqual([["apikey", "apikey.created"]]);
    } finally {
      await context.close();
    }
  });

  it("when filters are applied, then they narrow the rows, live in the URL (a reload keeps them), and clearing them brings every row back", async () => {
    const world = await teamWithDomain(api);
    const first = await createInbox(api, world.owner.token, world.assignmentId, `one-${hex()}`);
    const second = await createInbox(api, world.owner.token, world.assignmentId, `two-${hex()}`);
    const key = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: `filter probe ${hex()}`, scopes: ["team.view"] },
    });
    await logged(world, "inbox.created", second.id);
    await logged(world, "apikey.created", key.body.id);

    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/audit");
      await auditRows(page).filter({ hasText: first.full_address }).waitFor();
      const everything = await auditRows(page).count();
      expect(everything).toBeGreaterThanOrEqual(3);

      // a typed filter (action) and a target id: one row
      const form = page.getByRole("form", { name: "Audit filters" });
      await form.getByRole("textbox", { name: "Action" }).fill("inbox.created");
      await form.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/[?&]action=inbox\.created/);
      await auditRows(page).filter({ hasText: "API key created" }).waitFor({ state: "detached" });
      expect(await auditRows(page).filter({ hasText: "Inbox created" }).count()).toBe(2);
      await form.getByRole("textbox", { name: "Target id" }).fill(second.id);
      await form.getByRole("textbox", { name: "Target id" }).press("Enter");
      await page.waitForURL(/[?&]resource_id=/);
      await auditRows(page).filter({ hasText: first.full_address }).waitFor({ state: "detached" });
      expect(await auditRows(page).count()).toBe(1);
      expect(
        await page
          .getByRole("status")
          .filter({ hasText: /entr(y|ies) / })
          .textContent(),
      ).toBe("1 entry matches these 2 filters.");

      // kept on reload
      await page.reload();
      await expect(form.getByRole("textbox", { name: "Action" }).inputValue()).resolves.toBe("inbox.created");
      await auditRows(page).filter({ hasText: second.full_address }).waitFor();
      expect(await auditRows(page).count()).toBe(1);

      // dates: a window long past holds nothing
      await form.getByRole("button", { name: "Clear filters" }).click();
      await auditRows(page).filter({ hasText: "API key created" }).waitFor();
      await form.getByLabel("To", { exact: true }).fill("2001-01-01T00:00");
      await form.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/[?&]date_to=2001-01-01T/);
      await page.getByRole("heading", { name: "No entries match these filters" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // clicking a row's actor narrows to that actor
      await form.getByRole("button", { name: "Clear filters" }).click();
      await page
        .getByRole("button", { name: `Only entries by ${world.owner.email}` })
        .first()
        .click();
      await page.waitForURL(/[?&]actor_email=/);
      expect(await auditRows(page).count()).toBe(everything);

      // an entry's details
      await auditRows(page).filter({ hasText: "API key created" }).getByRole("button", { name: "Details: API key created" }).click();
      const dialog = page.getByRole("dialog", { name: "Audit entry" });
      await dialog.getByText(key.body.id).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    } finally {
      await context.close();
    }
  });

  it("when a plain member signs in, then the audit log is not offered, its page says why, and the API agrees; analytics are there", async () => {
    const world = await teamWithDomain(api);
    const member = await registerUser(api, "member");
    const added = await api("POST", `/orgs/${world.orgId}/members/add`, {
      token: world.owner.token,
      body: { user_id: member.userId, role: "member" },
    });
    expect(added.status).toBe(201);
    expect((await api("GET", `/orgs/${world.orgId}/audit`, { token: member.token })).status).toBe(403);

    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, member.email);
      await page.goto("/audit");
      await page.getByText("Not available to your role").waitFor();
      await page.getByText(/does not include the audit log \(org\.audit\.view\)/).waitFor();
      expect(await page.getByRole("button", { name: "Export" }).count()).toBe(0);
      await nav(page).getByRole("link", { name: "Analytics" }).waitFor();
      expect(await nav(page).getByRole("link", { name: "Audit log" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await nav(page).getByRole("link", { name: "Analytics" }).click();
      await page.getByRole("heading", { name: "Totals" }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("when a system admin opens the audit log, then the whole platform's log is offered too, with another org's entries", async () => {
    const other = await teamWithDomain(api);
    const key = await api<{ id: string }>("POST", `/orgs/${other.orgId}/teams/${other.teamId}/api-keys`, {
      token: other.owner.token,
      body: { name: `platform probe ${hex()}`, scopes: ["team.view"] },
    });
    await logged(other, "apikey.created", key.body.id);
    const admin = await registerAdmin(api, system);
    const { context, page } = await userBrowser(browser, system);
    try {
      await signIn(page, admin.email);
      await nav(page).getByRole("link", { name: "Audit log" }).click();
      await page.getByText("Whole platform", { exact: true }).click();
      await page.waitForURL(/[?&]scope=platform/);
      const form = page.getByRole("form", { name: "Audit filters" });
      await form.getByRole("textbox", { name: "Target id" }).fill(key.body.id);
      await form.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/[?&]resource_id=/);
      await auditRows(page).nth(1).waitFor({ state: "detached" });
      await auditRows(page).filter({ hasText: other.owner.email }).getByText("API key created").waitFor();
      await page.getByText("Exports are made per organization").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when mail arrives over SMTP, then the analytics charts count it per day, per domain and per team, with the numbers as text and tables; the range is chosen in the URL", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `stats-${hex()}`);
    const sender = `shop-${hex()}.example`;
    for (const subject of ["Order placed", "Order shipped"]) {
      const sent = await sendMail(system.ports.smtp, { from: `news@${sender}`, to: inbox.full_address, subject, text: "hello" });
      expect(sent.data?.code).toBe(250);
    }
    const today = new Date().toISOString().slice(0, 10);
    await waitFor(
      async () => {
        const r = await api<{ data: Array<{ date: string; count: number }> }>(
          "GET",
          `/orgs/${world.orgId}/analytics/emails-per-day?days=30`,
          {
            token: world.owner.token,
          },
        );
        return r.body.data?.find((d) => d.date === today)?.count === 2;
      },
      { what: "two emails in the org's analytics", timeoutMs: 20_000 },
    );

    const { context, page } = await userBrowser(browser, system);
    const figure = (name: string): Locator => page.getByRole("figure", { name, exact: true });
    try {
      await signIn(page, world.owner.email);
      await nav(page).getByRole("link", { name: "Analytics" }).click();
      const perDay = figure("Emails per day");
      await perDay.getByText("2 emails in the last 30 days").waitFor();
      // a real chart: the picture has its name and its bars
      await perDay.getByRole("img", { name: /^Emails per day\. 2 emails in the last 30 days/ }).waitFor();
      expect(await perDay.locator(".recharts-bar-rectangle path, path.recharts-rectangle").count()).toBeGreaterThan(0);
      // and its numbers as a table
      await perDay.getByText("Show the numbers").click();
      const todayRow = perDay.getByRole("table", { name: "Emails per day: the numbers" }).getByRole("row").filter({ hasText: today });
      expect((await todayRow.getByRole("cell").allTextContents()).map((s) => s.trim())).toEqual([today, "2"]);
      await figure("Emails per domain").getByText(`the most was ${world.domainName} with 2 emails`).waitFor();
      await figure(`Emails per day on ${world.domainName}`).getByText("2 emails in the last 30 days").waitFor();
      await page
        .getByRole("table", { name: "Top sender domains (all time)" })
        .getByRole("row")
        .filter({ hasText: sender })
        // exact: the random sender's domain may hold a "2" of its own
        .getByRole("cell", { name: "2", exact: true })
        .waitFor();
      await figure("Busiest hours (UTC)")
        .getByText(/with 2 emails\.$/)
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // the range: in the URL, and the series follows
      await page.getByText("7 days", { exact: true }).click();
      await page.waitForURL(/[?&]days=7/);
      await perDay.getByText("2 emails in the last 7 days").waitFor();
      await page.reload();
      await figure("Emails per day").getByText("2 emails in the last 7 days").waitFor();

      // the team's figures
      await page.getByText("Team: QA", { exact: true }).click();
      await page.waitForURL(/[?&]scope=team/);
      await page.getByRole("heading", { name: "Totals of QA" }).waitFor();
      await figure("Emails per day").getByText("2 emails in the last 7 days").waitFor();
      await figure("Inboxes made per day").getByText("1 inbox in the last 7 days").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when the analytics and audit pages are used at 360 px in dark mode, then nothing overflows sideways, and the day range and the export are worked from the keyboard", async () => {
    const world = await teamWithDomain(api);
    const { context, page } = await userBrowser(browser, system, { ...NARROW, colorScheme: "dark" });
    try {
      await signIn(page, world.owner.email);
      await page.goto("/analytics");
      await page.getByRole("figure", { name: "Emails per day", exact: true }).getByText("No emails in the last 30 days.").waitFor();
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      // the day range: Tab reaches the chosen range, an arrow key picks the next one
      await tabTo(page, page.getByRole("radiogroup", { name: "Day range" }).getByRole("radio", { checked: true }));
      await page.keyboard.press("ArrowRight");
      await page.getByRole("figure", { name: "Emails per day", exact: true }).getByText("No emails in the last 90 days.").waitFor();
      expect(new URL(page.url()).searchParams.get("days")).toBe("90");
      await expectNoSidewaysScroll(page);

      await page.goto("/audit");
      await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
      await auditRows(page).first().waitFor();
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      // the export: Tab to it, Enter opens its menu, Enter on a format downloads the file
      await tabTo(page, page.getByRole("button", { name: "Export" }));
      await page.keyboard.press("Enter");
      const csv = page.getByRole("menuitem", { name: "CSV (spreadsheets)" });
      await csv.waitFor();
      await csv.focus();
      const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
    } finally {
      await context.close();
    }
  });
});
