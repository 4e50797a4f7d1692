import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { signIn } from "./console/world";
import { hostileHtml, mimeMessage, PNG_1X1, sendRaw, startRemoteHost, tinyPdf } from "./console-mail-fixtures";
import { SharedSystem } from "./shared-system";
import { newClientIp, teamWithDomain } from "./world";

type World = Awaited<ReturnType<typeof teamWithDomain>>;
type InboxBody = { id: string; full_address: string; expires_at: string };

/**
 * The console's inboxes and mail reader in Chromium (issue 27 items 2, 3 and 6): an inbox made in
 * the form, mail sent through the SMTP intake showing up live, each tab of the reader, a hostile
 * mail shown without running or fetching anything, and axe scans of the three pages.
 */
describe("the console: inboxes and the mail reader", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: World;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const FROM = "noreply@acme.example";

  beforeAll(async () => {
    world = await teamWithDomain(api);
    context = await ui.browser.newContext({
      baseURL: system.gatewayUrl,
      viewport: { width: 1280, height: 800 },
      reducedMotion: "reduce",
      // the 'remote' image host is a local https server with the test certificate
      ignoreHTTPSErrors: true,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    context.setDefaultTimeout(15_000);
    await context.setExtraHTTPHeaders({ "x-forwarded-for": newClientIp() });
    page = await context.newPage();
    // any alert, confirm or prompt, from the console or a frame in it, is a failure
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, world.owner.email);
  });
  afterAll(async () => {
    await context?.close();
  });
  afterEach(() => expect(dialogs).toEqual([]));

  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;
  const inboxVia = async (label: string): Promise<InboxBody> => {
    const r = await api<InboxBody>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: alias(label) },
    });
    if (r.status !== 201) throw new Error(`inbox: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const liveOn = async (inboxId: string) => {
    await page.goto(`/inboxes/${inboxId}`);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  };
  const rows = () => page.getByTestId("mail-row");

  it("when an inbox is created in the form, then its page shows the address, its countdown and a live connection", async () => {
    await page.goto("/inboxes");
    await page.getByRole("heading", { name: "Inboxes", level: 1 }).waitFor();
    await page.getByText("No inboxes yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const name = alias("form");
    await page.getByRole("button", { name: "New inbox" }).click();
    const dialog = page.getByRole("dialog", { name: "New inbox" });
    await dialog.getByLabel("Alias").fill(name);
    await dialog.getByLabel("Time to live", { exact: true }).click();
    await page.getByRole("option", { name: "1 h", exact: true }).click();
    await dialog.getByRole("button", { name: "Create inbox" }).click();

    await page.waitForURL(/\/inboxes\/[0-9a-f-]{36}$/);
    const address = `${name}@${world.domainName}`;
    await expect(page.getByTestId("inbox-address").textContent()).resolves.toBe(address);
    await expect(page.getByTestId("countdown").textContent()).resolves.toMatch(/^(59 min \d+ s|1 h) left$/);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
    await page.getByText("No mail yet").waitFor();

    await page.getByRole("button", { name: "Copy the address" }).click();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(address);

    await page.goto("/inboxes");
    await page.getByRole("link", { name: address }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("when a mail comes in through SMTP, then it appears on the open inbox page without a reload, and each tab of the reader shows it", async () => {
    const inbox = await inboxVia("live");
    await liveOn(inbox.id);
    // a reload would drop this mark
    await page.evaluate("window.__notReloaded = true");

    const subject = `Your sign-in ${alias("s")}`;
    const png = { contentType: "image/png", filename: "logo.png", body: PNG_1X1 };
    const pdf = { contentType: "application/pdf", filename: "invoice.pdf", body: tinyPdf() };
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({
        from: `Acme <${FROM}>`,
        to: inbox.full_address,
        subject,
        headers: ["X-Test-Run: console-inbox"],
        text: "Hello!\nYour verification code is 482913.\nConfirm here: https://app.acme.example/verify?token=abc123\n",
        html: '<p>Hello from the HTML part!</p><p>Your verification code is <b>482913</b>.</p><p><a href="https://app.acme.example/verify?token=abc123">Confirm my email</a></p>',
        attachments: [png, pdf],
      }),
    );

    await rows().filter({ hasText: subject }).waitFor();
    expect(await page.evaluate<boolean>("window.__notReloaded === true")).toBe(true);
    await expect(rows().first().getAttribute("data-read")).resolves.toBe("false");
    expect(await seriousViolations(page)).toEqual([]);

    await rows().filter({ hasText: subject }).getByRole("link").click();
    await page.waitForURL(/\/mail\/[0-9a-f-]{36}/);
    await expect(page.getByTestId("mail-subject").textContent()).resolves.toBe(subject);
    // opening it marks it read
    await page
      .getByTestId("read-state")
      .filter({ hasText: /^Read$/ })
      .waitFor();

    // HTML: in the sandboxed frame
    const frame = page.frameLocator('[data-testid="mail-html"]');
    await frame.getByText("Hello from the HTML part!").waitFor();
    await expect(frame.getByRole("link", { name: "Confirm my email" }).getAttribute("target")).resolves.toBe("_blank");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("tab", { name: "Text" }).click();
    await expect(page.getByTestId("mail-text").textContent()).resolves.toContain("Your verification code is 482913.");

    await page.getByRole("tab", { name: "Headers" }).click();
    const headers = page.getByRole("table", { name: "Headers" });
    await expect(headers.getByRole("row").filter({ hasText: "X-Test-Run" }).textContent()).resolves.toContain("console-inbox");

    await page.getByRole("tab", { name: "Source" }).click();
    const raw = page.getByTestId("raw-source");
    await expect(raw.textContent()).resolves.toContain(`Subject: ${subject}`);
    await expect(raw.textContent()).resolves.toContain("X-Test-Run: console-inbox");

    await page.getByRole("tab", { name: /^Attachments/ }).click();
    await page.getByTestId("attachment").nth(1).waitFor();
    await expect(page.getByTestId("attachment").count()).resolves.toBe(2);
    const image = page.getByTestId("attachment").filter({ hasText: "logo.png" });
    await image.getByRole("button", { name: "Preview" }).click();
    await waitFor(
      async () =>
        (await image
          .locator("img")
          .evaluate(
            (i) =>
              (i as unknown as { complete: boolean; naturalWidth: number }).complete &&
              (i as unknown as { naturalWidth: number }).naturalWidth,
          )) === 1
          ? true
          : null,
      {
        what: "the image preview",
      },
    );
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download invoice.pdf" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("invoice.pdf");
    const pdfRow = page.getByTestId("attachment").filter({ hasText: "invoice.pdf" });
    await pdfRow.getByRole("button", { name: "Preview" }).click();
    await pdfRow.getByTestId("attachment-preview").waitFor();

    await page.getByRole("tab", { name: /^Codes & links/ }).click();
    await expect(page.getByTestId("code-value").first().textContent()).resolves.toBe("482913");
    await expect(page.getByTestId("link").first().textContent()).resolves.toContain("https://app.acme.example/verify?token=abc123");
    // scanned before the copy, whose tooltip fades in and out
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Copy the code 482913" }).click();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe("482913");

    // the tab is in the URL: a reload comes back to it
    await page.reload();
    await expect(page.getByRole("tab", { name: /^Codes & links/ }).getAttribute("aria-selected")).resolves.toBe("true");
  });

  it("when a mail's HTML holds scripts, a form, a javascript: link and remote images, then nothing runs or loads until the reader loads remote images", async () => {
    const remote = await startRemoteHost();
    try {
      const inbox = await inboxVia("hostile");
      await liveOn(inbox.id);
      const subject = `Hostile ${alias("h")}`;
      await sendRaw(
        system.ports.smtp,
        FROM,
        inbox.full_address,
        mimeMessage({ from: FROM, to: inbox.full_address, subject, text: "plain part", html: hostileHtml(remote.url) }),
      );
      await rows().filter({ hasText: subject }).getByRole("link").click();
      const iframe = page.getByTestId("mail-html");
      await iframe.waitFor();
      // sandboxed: no scripts, no same origin, no forms, no top navigation
      expect((await iframe.getAttribute("sandbox"))?.split(/\s+/).sort()).toEqual(["allow-popups", "allow-popups-to-escape-sandbox"]);
      const frame = page.frameLocator('[data-testid="mail-html"]');
      await frame.getByText("Hello from a hostile sender").waitFor();
      await page.getByTestId("remote-blocked").waitFor();

      // the javascript: link leads nowhere; the form, if any survived, submits nowhere
      await frame.getByText("Claim your prize").click();
      const submit = frame.getByRole("button", { name: "Sign in" });
      if ((await submit.count()) > 0) await submit.click();
      // the frame's load event waits for its images: had any remote one been asked for, the host has seen it by now
      const mailFrame = page.frames().find((f) => f.url() === "about:srcdoc");
      expect(mailFrame).toBeDefined();
      await mailFrame!.waitForLoadState("load");
      expect(mailFrame!.url()).toBe("about:srcdoc");
      expect(remote.hits).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(page.url()).toMatch(/\/mail\/[0-9a-f-]{36}/);

      await page.getByRole("button", { name: "Load remote images" }).click();
      await waitFor(async () => (remote.hits.includes("/pixel.png") ? true : null), { what: "the remote image requested" });
      // only images: never the script's fetch, the form's action, the stylesheet, the frame or the refresh
      expect(remote.hits.filter((h) => !/^\/(pixel|bg)\.png$/.test(h))).toEqual([]);
      expect(dialogs).toEqual([]);
    } finally {
      await remote.close();
    }
  });

  it("when mail is marked unread, read, all read and deleted, then the list and the reader follow", async () => {
    const inbox = await inboxVia("flags");
    await liveOn(inbox.id);
    const subjects = [`First ${alias("a")}`, `Second ${alias("b")}`];
    for (const subject of subjects)
      await sendRaw(
        system.ports.smtp,
        FROM,
        inbox.full_address,
        mimeMessage({ from: FROM, to: inbox.full_address, subject, text: `body of ${subject}` }),
      );
    for (const subject of subjects) await rows().filter({ hasText: subject }).waitFor();

    // in the list: mark one read and back
    const first = rows().filter({ hasText: subjects[0] });
    await first.getByRole("button", { name: "Mark read" }).click();
    await page.locator(`[data-testid="mail-row"][data-read="true"]`, { hasText: subjects[0] }).waitFor();
    await first.getByRole("button", { name: "Mark unread" }).click();
    await page.locator(`[data-testid="mail-row"][data-read="false"]`, { hasText: subjects[0] }).waitFor();

    // in the reader: opened is read; mark it unread there
    await first.getByRole("link").click();
    await page
      .getByTestId("read-state")
      .filter({ hasText: /^Read$/ })
      .waitFor();
    await page.getByRole("button", { name: "Mark unread" }).click();
    await page
      .getByTestId("read-state")
      .filter({ hasText: /^Unread$/ })
      .waitFor();
    await page.getByRole("link", { name: "Back to the inbox" }).click();
    await page.locator(`[data-testid="mail-row"][data-read="false"]`, { hasText: subjects[0] }).waitFor();

    await page.getByRole("button", { name: "Mark all read" }).click();
    await waitFor(async () => ((await page.locator('[data-testid="mail-row"][data-read="false"]').count()) === 0 ? true : null), {
      what: "all read",
    });
    const listed = await api<{ data: Array<{ is_read: boolean }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
    expect(listed.body.data.map((e) => e.is_read)).toEqual([true, true]);

    // keyboard: Down moves between rows, Enter opens one
    await rows().first().getByRole("link").focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.locator(":focus").getAttribute("aria-label")).resolves.toContain(subjects[0]);

    await rows()
      .filter({ hasText: subjects[1] })
      .getByRole("button", { name: /^Delete the mail/ })
      .click();
    await waitFor(async () => ((await rows().count()) === 1 ? true : null), { what: "the row gone" });
    const after = await api<{ data: unknown[] }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
    expect(after.body.data).toHaveLength(1);
  });

  it("when an inbox is extended and then deleted, then its expiry moves and it is gone", async () => {
    const inbox = await inboxVia("extend");
    await liveOn(inbox.id);
    await page.getByRole("button", { name: `Extend ${inbox.full_address}` }).click();
    const dialog = page.getByRole("dialog", { name: `Extend ${inbox.full_address}` });
    await dialog.getByLabel("Keep it for", { exact: true }).click();
    await page.getByRole("option", { name: "6 h", exact: true }).click();
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    const got = await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
    expect(new Date(got.body.expires_at).getTime() - Date.now()).toBeGreaterThan(5 * 3_600_000);
    await page
      .getByTestId("countdown")
      .filter({ hasText: /^(5 h \d+ min|6 h) left$/ })
      .waitFor();

    // an extension past the maximum shows the API's message
    await page.getByRole("button", { name: `Extend ${inbox.full_address}` }).click();
    await dialog.getByLabel("Keep it for", { exact: true }).click();
    await page.getByRole("option", { name: "1 d", exact: true }).click();
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await dialog.getByRole("alert").waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: `Delete ${inbox.full_address}` }).click();
    await page.getByRole("dialog", { name: "Delete this inbox?" }).getByRole("button", { name: "Delete inbox" }).click();
    await page.waitForURL(/\/inboxes$/);
    expect((await api("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(404);
  });

  it("when the live connection drops, then the page says so, reconnects, and shows the mail that came meanwhile", async () => {
    const inbox = await inboxVia("drop");
    await liveOn(inbox.id);
    await system.stopProcess("realtime-gateway");
    try {
      await page.locator('[data-testid="connection-state"]:is([data-state="reconnecting"], [data-state="offline"])').waitFor();
      await page.getByRole("button", { name: "Reconnect now" }).waitFor();
      const meanwhile = `Meanwhile ${alias("m")}`;
      await sendRaw(
        system.ports.smtp,
        FROM,
        inbox.full_address,
        mimeMessage({ from: FROM, to: inbox.full_address, subject: meanwhile, text: "sent while the stream was down" }),
      );
    } finally {
      await system.startProcess("realtime-gateway");
    }
    // the next try comes by itself (back-off at most a few seconds here)
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor({ timeout: 30_000 });
    await rows().filter({ hasText: "Meanwhile" }).waitFor();
    const after = `After ${alias("a")}`;
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({ from: FROM, to: inbox.full_address, subject: after, text: "live again" }),
    );
    await rows().filter({ hasText: after }).waitFor();
  });

  it("at 360 px wide, the inbox page and the reader fit without sideways scrolling", async () => {
    const inbox = await inboxVia("narrow");
    await sendRaw(
      system.ports.smtp,
      FROM,
      inbox.full_address,
      mimeMessage({ from: FROM, to: inbox.full_address, subject: "Narrow", text: "x", html: "<p>narrow</p>" }),
    );
    await page.setViewportSize({ width: 360, height: 760 });
    try {
      await liveOn(inbox.id);
      await rows().first().waitFor();
      const overflow = () => page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(await overflow()).toBeLessThanOrEqual(0);
      await rows().first().getByRole("link").click();
      await page.getByTestId("mail-html").waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
