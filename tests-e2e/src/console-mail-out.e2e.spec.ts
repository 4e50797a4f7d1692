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
type Inbox = { id: string; full_address: string };
type Summary = { id: string; subject: string; spam_score: number | null };
type Spam =
  | { status: "scored"; score: number; required_score: number; action: string; symbols: Array<{ name: string; score: number }> }
  | { status: "unavailable" | "disabled" };
type Outbound = { id: string; kind: string; to: string[]; subject: string; status: string };

const CRLF = "\r\n";
/** The standard test string every spam filter scores as spam (rspamd: action `reject`). */
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
const FROM = "noreply@acme.example";

/**
 * The console's mail both ways in Chromium (extensions sections 9, 10 and 12): the reader's spam
 * score and the list's marker, the Preview tab's renders, Compose, Reply and Release with the
 * inbox's "Sent mail" log, the refusals shown in words, the org's allowed recipients, and the
 * actions left out for a team role without `team.emails.send`.
 */
describe("the console: spam scores, previews and mail out", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: World;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    world = await teamWithDomain(api);
    ({ context, page } = await userBrowser(ui.browser, system));
    await signIn(page, world.owner.email);
  });
  afterAll(async () => {
    await context?.close();
  });

  const tag = () => randomBytes(3).toString("hex");
  const inbox = (label: string): Promise<Inbox> => createInbox(api, world.owner.token, world.assignmentId, `${label}-${tag()}`);
  const emails = async (inboxId: string): Promise<Summary[]> =>
    (await api<{ data: Summary[] }>("GET", `/inboxes/${inboxId}/emails`, { token: world.owner.token })).body.data;
  const arrived = (inboxId: string, subject: string): Promise<Summary> =>
    waitFor(async () => (await emails(inboxId)).find((e) => e.subject === subject), {
      timeoutMs: 20_000,
      what: `“${subject}” in ${inboxId}`,
    });
  const openMail = async (inboxId: string, subject: string) => {
    await page.goto(`/inboxes/${inboxId}`);
    const row = page.getByTestId("mail-row").filter({ hasText: subject });
    await row.waitFor();
    await row.getByRole("link").click();
    await page.waitForURL(/\/mail\/[0-9a-f-]{36}/);
    await expect(page.getByTestId("mail-subject").textContent()).resolves.toBe(subject);
  };
  const outbound = async (inboxId: string): Promise<Outbound[]> =>
    (await api<{ data: Outbound[] }>("GET", `/inboxes/${inboxId}/outbound`, { token: world.owner.token })).body.data;

  it("when a GTUBE mail and a plain one arrive, then only the GTUBE row is marked, and the reader's Spam tab shows the score, required score, action and rules", async () => {
    if (!system.rspamdPort) throw new Error("rspamd is not installed (apt-get install rspamd): the spam score's tests need it");
    const box = await inbox("spam");
    const gtube = `Win a prize ${tag()}`;
    const plain = `Meeting notes ${tag()}`;
    const raw = [`From: ${FROM}`, `To: ${box.full_address}`, `Subject: ${gtube}`, "", `The test string:${CRLF}${GTUBE}`, ""].join(CRLF);
    await sendRaw(system.ports.smtp, FROM, box.full_address, raw);
    await sendRaw(
      system.ports.smtp,
      FROM,
      box.full_address,
      mimeMessage({ from: FROM, to: box.full_address, subject: plain, text: "Notes of today's meeting are below." }),
    );
    const spamId = (await arrived(box.id, gtube)).id;
    await arrived(box.id, plain);
    const view = await api<{ spam: Spam }>("GET", `/emails/${spamId}`, { token: world.owner.token });
    const spam = view.body.spam;
    expect(spam.status).toBe("scored");
    if (spam.status !== "scored") return;

    await page.goto(`/inboxes/${box.id}`);
    const spamRow = page.getByTestId("mail-row").filter({ hasText: gtube });
    const plainRow = page.getByTestId("mail-row").filter({ hasText: plain });
    await spamRow.waitFor();
    await plainRow.waitFor();
    await expect(spamRow.getByTestId("spam-marker").textContent()).resolves.toBe(`Spam ${Math.round(spam.score * 100) / 100}`);
    await expect(plainRow.getByTestId("spam-marker").count()).resolves.toBe(0);
    // the marker is in the row link's name too, not only a colour
    await expect(spamRow.getByRole("link").getAttribute("aria-label")).resolves.toMatch(/^Unread\. Likely spam\. From /);
    expect(await seriousViolations(page)).toEqual([]);

    await spamRow.getByRole("link").click();
    await page.waitForURL(/\/mail\//);
    const line = page.getByTestId("spam-line");
    await expect(line.textContent()).resolves.toBe(
      `Spam score ${Math.round(spam.score * 100) / 100} of ${Math.round(spam.required_score * 100) / 100} (${spam.action})`,
    );
    await line.click();
    await page.getByRole("tab", { name: "Spam", selected: true }).waitFor();
    await expect(page.getByTestId("spam-action").textContent()).resolves.toBe("reject");
    await expect(page.getByTestId("spam-required").textContent()).resolves.toBe(String(Math.round(spam.required_score * 100) / 100));
    const rules = page.getByRole("table", { name: "Spam rules matched" });
    await expect(rules.getByRole("row").filter({ hasText: "GTUBE" }).count()).resolves.toBe(1);
    await expect(rules.getByTestId("spam-symbol").count()).resolves.toBe(spam.symbols.length);
    expect(await seriousViolations(page)).toEqual([]);
    // the tab is in the URL
    await page.reload();
    await page.getByRole("tab", { name: "Spam", selected: true }).waitFor();
  });

  it("when the Preview tab opens, then the light and dark renders show side by side at the chosen width, with remote images blocked until allowed", async () => {
    const box = await inbox("preview");
    const subject = `Preview ${tag()}`;
    const html =
      "<!doctype html><html><head><style>@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }</style></head>" +
      '<body><h1>Confirm your email</h1><p>Your code is <b>123456</b>.</p><img src="https://cdn.acme.example/logo.png" alt="logo"></body></html>';
    await sendRaw(system.ports.smtp, FROM, box.full_address, mimeMessage({ from: FROM, to: box.full_address, subject, html }));
    await arrived(box.id, subject);
    await openMail(box.id, subject);

    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/preview?")) asked.push(new URL(r.url()).search);
    });
    await page.getByRole("tab", { name: "Preview" }).click();
    const widthOf = (scheme: string) =>
      page
        .locator(`[data-testid="preview-image"][data-scheme="${scheme}"]`)
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    await page.locator('[data-testid="preview-image"][data-scheme="dark"]').waitFor({ timeout: 40_000 });
    await page.locator('[data-testid="preview-image"][data-scheme="light"]').waitFor({ timeout: 40_000 });
    await expect(widthOf("light")).resolves.toBe(600);
    await expect(widthOf("dark")).resolves.toBe(600);
    expect(asked.every((q) => q.includes("images=blocked"))).toBe(true);
    expect(asked.some((q) => q.includes("scheme=dark")) && asked.some((q) => q.includes("scheme=light"))).toBe(true);
    await expect(page.getByRole("figure", { name: "Light, 600 px" }).getByRole("img").getAttribute("alt")).resolves.toContain(subject);
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator("label", { hasText: "375 px" }).click();
    await page.locator('[data-testid="preview-image"][data-width="375"][data-scheme="light"]').waitFor({ timeout: 40_000 });
    await page.locator('[data-testid="preview-image"][data-width="375"][data-scheme="dark"]').waitFor({ timeout: 40_000 });
    await expect(widthOf("dark")).resolves.toBe(375);

    await page.getByRole("switch", { name: "Load remote images" }).check();
    await expect(page.getByRole("switch", { name: "Load remote images" }).isChecked()).resolves.toBe(true);
    await page.locator('[data-testid="preview-image"][data-width="375"][data-scheme="light"]').waitFor({ timeout: 40_000 });
    await waitFor(() => asked.some((q) => q.includes("images=allowed") && q.includes("width=375")), {
      timeoutMs: 10_000,
      what: "a preview with images allowed",
    });

    // at a phone's width nothing scrolls sideways: the Preview and Spam tabs and the header's actions
    // (a fresh load at that width, as a phone opens it: the shell's navigation does not slide away mid-check)
    await page.setViewportSize(NARROW);
    try {
      await page.reload();
      await page.getByRole("tab", { name: "Preview" }).click();
      await page.locator('[data-testid="preview-image"][data-scheme="dark"]').waitFor({ timeout: 40_000 });
      await page.locator('[data-testid="preview-image"][data-scheme="light"]').waitFor({ timeout: 40_000 });
      await expectNoSidewaysScroll(page);
      await page.getByRole("tab", { name: "Spam" }).click();
      await page.getByTestId("spam-state").waitFor();
      await expectNoSidewaysScroll(page);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("when the owner composes from inbox A to inbox B and replies from B, then both are in the Sent mail logs and the reply reaches A; a recipient outside the org's list is refused in words until the settings allow it", async () => {
    const a = await inbox("sender");
    const b = await inbox("receiver");
    const subject = `Hello from A ${tag()}`;

    await page.goto(`/inboxes/${a.id}`);
    await page.getByRole("button", { name: "Compose", exact: true }).click();
    const compose = page.getByRole("dialog", { name: "New message" });
    // the contract's schema refuses a bad address before anything is sent
    await compose.getByLabel("To").fill(`${b.full_address}, not-an-address`);
    await compose.getByLabel("Subject").fill(subject);
    await compose.getByRole("button", { name: "Send", exact: true }).click();
    await compose.getByText("Address 2: must be an email address").waitFor();
    await compose.getByLabel("To").fill(b.full_address);
    await compose.getByRole("button", { name: "Send", exact: true }).click();
    await compose.getByText("at least one of text and html").waitFor();
    expect(await outbound(a.id)).toEqual([]);
    await compose.getByLabel("Message").fill("Hi B, this is A.");
    expect(await seriousViolations(page)).toEqual([]);
    await compose.getByRole("button", { name: "Send", exact: true }).click();
    await compose.waitFor({ state: "detached" });
    const sent = page.getByRole("table", { name: "Sent mail" }).getByTestId("outbound-row").filter({ hasText: subject });
    await sent.waitFor();
    await expect(sent.getByRole("cell").nth(1).textContent()).resolves.toBe("New message");
    await expect(sent.getByRole("cell").nth(2).textContent()).resolves.toBe(b.full_address);
    // the log reads again while a message is queued: it shows "sent" once delivered
    await page.locator('[data-testid="outbound-row"][data-status="sent"]').filter({ hasText: subject }).waitFor({ timeout: 30_000 });

    await arrived(b.id, subject);
    await openMail(b.id, subject);
    await page.getByRole("button", { name: "Reply", exact: true }).click();
    const reply = page.getByRole("dialog", { name: "Reply" });
    await expect(reply.textContent()).resolves.toContain(`Re: ${subject}`);
    await reply.getByLabel("Message").fill("Thanks A, B here.");
    await reply.getByRole("button", { name: "Send reply" }).click();
    await reply.waitFor({ state: "detached" });
    await arrived(a.id, `Re: ${subject}`);
    expect((await outbound(b.id)).map((m) => [m.kind, m.to])).toEqual([["reply", [a.full_address]]]);

    // Release to an address the org does not allow: 403 in words, nothing sent
    const outside = `qa-${tag()}@outside.example`;
    await page.getByRole("button", { name: "Release", exact: true }).click();
    const release = page.getByRole("dialog", { name: "Release the message" });
    await release.getByLabel("Release to").fill(outside);
    await release.getByRole("button", { name: "Release", exact: true }).click();
    const refused = release.getByTestId("outbound-error");
    await refused.getByRole("alert").waitFor();
    await expect(refused.getByRole("alert").textContent()).resolves.toContain("Recipient not allowed");
    await expect(refused.getByRole("alert").textContent()).resolves.toContain(`recipient not allowed: ${outside}`);
    expect(await seriousViolations(page)).toEqual([]);
    await release.getByRole("button", { name: "Cancel" }).click();
    expect((await outbound(b.id)).map((m) => m.kind)).toEqual(["reply"]);

    // the org's settings page allows the domain; the release is then queued
    await page.goto(`/orgs/${world.orgId}/settings`);
    const allowed = page.getByRole("textbox", { name: "Allowed recipients" });
    await allowed.fill("@outside.example\nnot a pattern");
    await page.getByRole("button", { name: "Save outbound settings" }).click();
    await page.getByText("not a pattern: must be an address, @domain or *.domain").waitFor();
    await allowed.fill("@outside.example");
    await page.getByRole("button", { name: "Save outbound settings" }).click();
    await page.getByText("Outbound settings saved").waitFor();
    const org = await api<{ settings: { outbound: { allowed_recipients: string[] } } }>("GET", `/orgs/${world.orgId}`, {
      token: world.owner.token,
    });
    expect(org.body.settings.outbound.allowed_recipients).toEqual(["@outside.example"]);
    expect(await seriousViolations(page)).toEqual([]);

    await openMail(b.id, subject);
    await page.getByRole("button", { name: "Release", exact: true }).click();
    await release.getByLabel("Release to").fill(outside);
    await release.getByRole("button", { name: "Release", exact: true }).click();
    await release.waitFor({ state: "detached" });
    await page.goto(`/inboxes/${b.id}`);
    const released = page.getByRole("table", { name: "Sent mail" }).getByTestId("outbound-row").filter({ hasText: outside });
    await released.waitFor();
    await expect(released.getByRole("cell").nth(1).textContent()).resolves.toBe("Release");
  });

  it("when a team member without team.emails.send opens an inbox and a mail, then Compose, Reply and Release are not offered", async () => {
    const member = await registerUser(api, "member");
    expect(
      (
        await api("POST", `/orgs/${world.orgId}/members/add`, {
          token: world.owner.token,
          body: { user_id: member.userId, role: "member" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
          token: world.owner.token,
          body: { user_id: member.userId, role: "member" },
        })
      ).status,
    ).toBe(201);
    const box = await inbox("member-view");
    const subject = `For the member ${tag()}`;
    await sendRaw(system.ports.smtp, FROM, box.full_address, mimeMessage({ from: FROM, to: box.full_address, subject, text: "hello" }));
    await arrived(box.id, subject);
    const send = await api("POST", `/inboxes/${box.id}/send`, {
      token: member.token,
      body: { to: [box.full_address], subject: "x", text: "x" },
    });
    expect(send.status).toBe(403);

    const { context: ctx, page: p } = await userBrowser(ui.browser, system);
    try {
      await signIn(p, member.email);
      await p.goto(`/inboxes/${box.id}`);
      await p.getByTestId("mail-row").filter({ hasText: subject }).waitFor();
      await p.getByRole("region", { name: "Sent mail", exact: true }).getByText("Nothing sent yet").waitFor();
      await p.waitForLoadState("networkidle");
      await expect(p.getByRole("button", { name: "Compose", exact: true }).count()).resolves.toBe(0);
      await p.getByTestId("mail-row").filter({ hasText: subject }).getByRole("link").click();
      await p.getByTestId("spam-line").waitFor();
      await p.waitForLoadState("networkidle");
      // the header's actions are there (the reader has rendered them), only the mail-out ones are not
      await expect(p.getByRole("button", { name: /^Mark (un)?read$/ }).count()).resolves.toBe(1);
      await expect(p.getByRole("button", { name: "Reply", exact: true }).count()).resolves.toBe(0);
      await expect(p.getByRole("button", { name: "Release", exact: true }).count()).resolves.toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it("when the team has sent its hourly limit, then Compose says so in words and nothing more is queued", async () => {
    // a team of its own, so the limit (outbound.max_per_hour, 100 by default) is this test's alone
    const other = await teamWithDomain(api);
    const from = await createInbox(api, other.owner.token, other.assignmentId, `limit-${tag()}`);
    const to = await createInbox(api, other.owner.token, other.assignmentId, `sink-${tag()}`);
    let limited = false;
    for (let batch = 0; batch < 11 && !limited; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api("POST", `/inboxes/${from.id}/send`, {
            token: other.owner.token,
            body: { to: [to.full_address], subject: `fill ${batch}-${i}`, text: "x" },
          }),
        ),
      );
      for (const a of answers) expect([202, 429]).toContain(a.status);
      limited = answers.some((a) => a.status === 429);
    }
    expect(limited).toBe(true);
    const { context: ctx, page: p } = await userBrowser(ui.browser, system);
    try {
      await signIn(p, other.owner.email);
      await p.goto(`/inboxes/${from.id}`);
      await p.getByRole("button", { name: "Compose", exact: true }).click();
      const compose = p.getByRole("dialog", { name: "New message" });
      await compose.getByLabel("To").fill(to.full_address);
      await compose.getByLabel("Subject").fill("one too many");
      await compose.getByLabel("Message").fill("x");
      await compose.getByRole("button", { name: "Send", exact: true }).click();
      const alert = compose.getByTestId("outbound-error").getByRole("alert");
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toContain("Hourly sending limit reached");
      await compose.getByText("The team has sent as many messages as it may this hour.").waitFor();
      expect(await seriousViolations(p)).toEqual([]);
    } finally {
      await ctx.close();
    }
    const log = await api<{ data: Outbound[] }>("GET", `/inboxes/${from.id}/outbound?per_page=100`, { token: other.owner.token });
    expect(log.body.data.some((m) => m.subject === "one too many")).toBe(false);
  });
});
