import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { signIn } from "./console/world";
import { mimeMessage, sendRaw } from "./console-mail-fixtures";
import { SharedSystem } from "./shared-system";
import { newClientIp, teamWithDomain } from "./world";

type World = Awaited<ReturnType<typeof teamWithDomain>>;
type InboxBody = { id: string; full_address: string };
type HtmlCheckBody = {
  score: number;
  issues: Array<{
    feature: string;
    clients_unsupported: string[];
    clients_partial: string[];
    scored: boolean;
    notes: Record<string, string>;
  }>;
};

/**
 * The reader's checks on received mail in Chromium (issue 29 item 4, extensions section 7): the
 * "HTML check" tab (score and the features a client lacks) and "Check links" in the Codes & links
 * tab, against an HTTP server of the test's own on 127.0.0.1 (which the e2e system's
 * `webhooks.unsafe_allowed_targets` lets through).
 */
describe("the console: the reader's HTML and link checks", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: World;
  let context: BrowserContext;
  let page: Page;
  let site: Server;
  let siteUrl: string;
  const FROM = "noreply@acme.example";

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === "/welcome") return res.writeHead(200, { "content-type": "text/plain" }).end(req.method === "HEAD" ? undefined : "hi");
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    world = await teamWithDomain(api);
    context = await ui.browser.newContext({ baseURL: system.gatewayUrl, viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
    context.setDefaultTimeout(15_000);
    await context.setExtraHTTPHeaders({ "x-forwarded-for": newClientIp() });
    page = await context.newPage();
    await signIn(page, world.owner.email);
  });
  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  const tag = () => randomBytes(3).toString("hex");
  const inboxVia = async (label: string): Promise<InboxBody> => {
    const r = await api<InboxBody>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: `${label}-${tag()}` },
    });
    if (r.status !== 201) throw new Error(`inbox: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const openMail = async (inbox: InboxBody, subject: string) => {
    await page.goto(`/inboxes/${inbox.id}`);
    const row = page.getByTestId("mail-row").filter({ hasText: subject });
    await row.waitFor();
    await row.getByRole("link").click();
    await page.waitForURL(/\/mail\/[0-9a-f-]{36}/);
    await expect(page.getByTestId("mail-subject").textContent()).resolves.toBe(subject);
  };

  it("when a mail's HTML uses flexbox and links to a live page, then the HTML check shows the exact score, names the feature Outlook lacks with its notes, and Check links shows the 200", async () => {
    const inbox = await inboxVia("checks");
    const subject = `Fancy ${tag()}`;
    const html = [
      "<!doctype html>",
      "<html><head><style>",
      ".row { display: flex; border-radius: 8px; }",
      "</style></head><body>",
      `<div class="row"><p>Hello</p><a href="${siteUrl}/welcome">Open the welcome page</a></div>`,
      "</body></html>",
    ].join("\n");
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, mimeMessage({ from: FROM, to: inbox.full_address, subject, html }));
    await openMail(inbox, subject);

    const id = /\/mail\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const answer = await api<HtmlCheckBody>("GET", `/emails/${id}/html-check`, { token: world.owner.token });
    expect(answer.status).toBe(200);
    const flexIssue = answer.body.issues.find((i) => i.feature === "css-display-flex")!;
    const [noted, note] = Object.entries(flexIssue.notes)[0]!;

    await page.getByRole("tab", { name: "HTML check" }).click();
    const score = page.getByTestId("html-check-score");
    await score.waitFor();
    // the score as the API gives it, with its decimal (not rounded)
    await expect(score.textContent()).resolves.toBe(`${answer.body.score}%`);
    expect(answer.body.score).toBeLessThan(100);
    const table = page.getByRole("table", { name: /features some clients lack or support in part/ });
    const flex = table.getByRole("row").filter({ hasText: "css-display-flex" });
    await flex.waitFor();
    const [feature, unsupported, partial] = await flex.getByRole("cell").allTextContents();
    expect(feature).toBe("css-display-flex");
    expect(unsupported).toContain("outlook.windows");
    // partial support is told apart from no support: its own column
    expect(flexIssue.clients_partial.length).toBeGreaterThan(0);
    expect(partial).toContain(flexIssue.clients_partial[0]);
    expect(unsupported).not.toContain(flexIssue.clients_partial[0]);
    // the wrapper is not among the issues that count, but on a quieter line of its own
    await expect(table.getByRole("row").filter({ hasText: "html-body" }).count()).resolves.toBe(0);
    await expect(page.getByText(/^Not scored: wrapper elements that clients strip/).textContent()).resolves.toContain("html-body");
    // the notes, behind a disclosure per issue
    const toggle = flex.getByRole("button", { name: "Notes on css-display-flex" });
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await toggle.click();
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("true");
    const notes = page.getByRole("region", { name: "Notes on css-display-flex" });
    await notes.waitFor();
    const shown = await notes.textContent();
    expect(shown).toContain(noted);
    // caniemail's Markdown code spans are shown as code, without their backticks
    expect(shown).toContain(note.replace(/`/g, ""));
    expect(await seriousViolations(page)).toEqual([]);
    // the tab is in the URL
    await page.reload();
    await expect(page.getByRole("tab", { name: "HTML check" }).getAttribute("aria-selected")).resolves.toBe("true");

    await page.getByRole("tab", { name: /^Codes & links/ }).click();
    await page.getByRole("button", { name: "Check links" }).click();
    const row = page.getByTestId("link-check-row").filter({ hasText: `${siteUrl}/welcome` });
    await row.waitFor();
    await expect(row.getAttribute("data-ok")).resolves.toBe("true");
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells.slice(0, 3)).toEqual([`${siteUrl}/welcome`, "200", "OK"]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("when a mail has no HTML part, then the reader offers no HTML check tab", async () => {
    const inbox = await inboxVia("plain");
    const subject = `Plain ${tag()}`;
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({ from: FROM, to: inbox.full_address, subject, text: "Just text." }),
    );
    await openMail(inbox, subject);
    await page.getByRole("tab", { name: "Text" }).waitFor();
    await expect(page.getByRole("tab", { name: "HTML check" }).count()).resolves.toBe(0);
  });
  it("when a mail's HTML uses no feature a client lacks, then the HTML check shows the full score and no issues", async () => {
    const inbox = await inboxVia("simple");
    const subject = `Simple ${tag()}`;
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({ from: FROM, to: inbox.full_address, subject, html: "<p>Hello</p>" }),
    );
    await openMail(inbox, subject);
    await page.getByRole("tab", { name: "HTML check" }).click();
    await expect(page.getByTestId("html-check-score").textContent()).resolves.toBe("100%");
    await page.getByText("No issues found").waitFor();
    await expect(page.getByTestId("html-check-issue").count()).resolves.toBe(0);
  });

  it("when a mail's HTML only has the document's wrappers besides plain content, then the HTML check says there are no issues and lists the wrappers as not scored", async () => {
    const inbox = await inboxVia("wrapped");
    const subject = `Wrapped ${tag()}`;
    const html = "<html><body><h1>Hi</h1></body></html>";
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, mimeMessage({ from: FROM, to: inbox.full_address, subject, html }));
    await openMail(inbox, subject);
    await page.getByRole("tab", { name: "HTML check" }).click();
    await expect(page.getByTestId("html-check-score").textContent()).resolves.toBe("100%");
    await page.getByRole("heading", { name: "No issues found" }).waitFor();
    await expect(page.getByRole("table", { name: /features some clients lack/ }).count()).resolves.toBe(0);
    const unscored = page.getByText(/^Not scored: wrapper elements that clients strip/);
    await expect(unscored.textContent()).resolves.toContain("html-body");
    // the wrappers' clients and notes are there on request
    await page.getByRole("button", { name: "Details on the wrapper elements" }).click();
    const details = page.getByRole("region", { name: "Details on the wrapper elements" });
    await details.getByText("html-body").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("when the mail is deleted while the reader is open, then Check links shows the API's message", async () => {
    const inbox = await inboxVia("gone");
    const subject = `Gone ${tag()}`;
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({ from: FROM, to: inbox.full_address, subject, text: `Open ${siteUrl}/welcome` }),
    );
    await openMail(inbox, subject);
    const id = /\/mail\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.getByRole("tab", { name: /^Codes & links/ }).click();
    expect((await api("DELETE", `/emails/${id}`, { token: world.owner.token })).status).toBe(204);
    const answer = await api<{ error: string }>("POST", `/emails/${id}/link-check`, { token: world.owner.token });
    expect(answer.status).toBe(404);

    await page.getByRole("button", { name: "Check links" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "The links could not be checked" });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain(answer.body.error);
  });
});
