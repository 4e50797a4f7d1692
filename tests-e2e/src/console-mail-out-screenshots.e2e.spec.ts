import { existsSync } from "node:fs";
import { waitFor } from "@burnbox/test-kit";
import type { Page } from "playwright-core";
import { apiClient } from "./clients";
import { attachConsole } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signIn } from "./console/world";
import { mimeMessage, sendRaw } from "./console-mail-fixtures";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/**
 * Screenshots of the reader's Spam and Preview tabs, the mail-out dialogs and the Sent mail log,
 * the org's outbound settings and a team's Snapshots pages, light and dark (see
 * console/screenshots.ts); skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes
 * docs/console/, `compare` compares the pictures with docs/console/ and fails on a difference, any
 * other value writes .test-results/console-screenshots/):
 *
 *   BB_CONSOLE_SCREENSHOTS=docs npx jest --projects tests-e2e --runInBand --forceExit tests-e2e/src/console-mail-out-screenshots.e2e.spec.ts
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

const CRLF = "\r\n";
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
const FROM = "noreply@acme.example";

const welcome = (to: string, subject: string, broken: boolean) =>
  mimeMessage({
    from: `Acme <${FROM}>`,
    to,
    subject,
    text: "Welcome to Acme\nGet started: https://app.acme.test/start\n",
    html: [
      "<!doctype html><html><head><style>",
      "body { font-family: sans-serif; padding: 24px; }",
      `.btn { background: ${broken ? "#d32f2f" : "#1a73e8"}; color: #fff; padding: 12px 20px; text-decoration: none; border-radius: 6px; }`,
      "@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }",
      "</style></head><body>",
      "<h1>Welcome to Acme</h1><p>Your account is ready. Your code is <b>482913</b>.</p>",
      '<p><a class="btn" href="https://app.acme.test/start">Get started</a></p>',
      broken ? "" : '<p><a href="https://app.acme.test/help">Help centre</a></p>',
      '<img src="https://cdn.acme.example/logo.png" alt="Acme logo" width="120" height="40">',
      "</body></html>",
    ].join("\n"),
  });

describeShots("the console's mail out, spam, previews and snapshots: screenshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inbox: { id: string; full_address: string };
  let spamId: string;
  let welcomeId: string;
  let snapshotId: string;

  const arrived = (subject: string) =>
    waitFor(
      async () =>
        (
          await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token })
        ).body.data.find((e) => e.subject === subject)?.id,
      { timeoutMs: 20_000, what: subject },
    );

  beforeAll(async () => {
    world = await teamWithDomain(api);
    inbox = await createInbox(api, world.owner.token, world.assignmentId, "signup-test");
    const other = await createInbox(api, world.owner.token, world.assignmentId, "support-desk");
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, welcome(inbox.full_address, "Welcome to Acme", false));
    welcomeId = await arrived("Welcome to Acme");
    const raw = [`From: ${FROM}`, `To: ${inbox.full_address}`, "Subject: You have won a prize", "", `Claim it now:${CRLF}${GTUBE}`, ""];
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, raw.join(CRLF));
    spamId = await arrived("You have won a prize");
    // a sent message and a reply in the Sent mail log (the reply goes to acme.example, which the org allows)
    const token = world.owner.token;
    const allow = await api("PATCH", `/orgs/${world.orgId}/settings`, {
      token,
      body: { outbound: { allowed_recipients: ["@acme.example"] } },
    });
    expect(allow.status).toBe(200);
    expect(
      (await api("POST", `/inboxes/${inbox.id}/send`, { token, body: { to: [other.full_address], subject: "Order #1042", text: "Hi" } }))
        .status,
    ).toBe(202);
    expect((await api("POST", `/emails/${welcomeId}/reply`, { token, body: { text: "Thanks!" } })).status).toBe(202);
    // a snapshot of the welcome mail, compared with a broken one
    const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
    const made = await api<{ id: string }>("POST", `${team}/snapshots`, { token, body: { name: "signup-welcome", email_id: welcomeId } });
    expect(made.status).toBe(201);
    snapshotId = made.body.id;
    await sendRaw(system.ports.smtp, FROM, inbox.full_address, welcome(inbox.full_address, "Welcome to Acme!", true));
    const broken = await arrived("Welcome to Acme!");
    expect((await api("POST", `/emails/${broken}/compare`, { token, body: { snapshot: "signup-welcome" } })).status).toBe(200);
    expect((await api("POST", `${team}/snapshots`, { token, body: { name: "password-reset", email_id: welcomeId } })).status).toBe(201);
  }, 180_000);

  const shoot = async (name: string, open: (page: Page) => Promise<void>, options?: { width?: number; height?: number }) => {
    expect((await api("DELETE", "/auth/sessions", { token: world.owner.token })).status).toBeLessThan(300);
    const files = await shootBoth(ui.browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  it("inbox page with the spam marker and the Sent mail log", () =>
    shoot(
      "inbox-mail-out",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}`);
        await page.getByTestId("spam-marker").waitFor();
        await page.getByTestId("outbound-row").nth(1).waitFor();
      },
      { height: 1200 },
    ));

  it("reader: spam score", () =>
    shoot("mail-spam", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${spamId}?tab=spam`);
      await page.getByRole("table", { name: "Spam rules matched" }).waitFor();
    }));

  it("reader: preview", () =>
    shoot(
      "mail-preview",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}/mail/${welcomeId}?tab=preview`);
        await page.locator('[data-testid="preview-image"][data-scheme="light"]').waitFor({ timeout: 40_000 });
        await page.locator('[data-testid="preview-image"][data-scheme="dark"]').waitFor({ timeout: 40_000 });
      },
      { height: 1000 },
    ));

  it("reader: reply dialog", () =>
    shoot("mail-reply", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${welcomeId}`);
      await page.getByRole("button", { name: "Reply", exact: true }).click();
      await page.getByRole("dialog", { name: "Reply" }).getByLabel("Message").fill("Thanks, that worked.");
    }));

  it("reader: a release refused", () =>
    shoot("mail-release-refused", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${welcomeId}`);
      await page.getByRole("button", { name: "Release", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Release the message" });
      await dialog.getByLabel("Release to").fill("qa@outside.example");
      await dialog.getByRole("button", { name: "Release", exact: true }).click();
      await dialog.getByTestId("outbound-error").getByRole("alert").waitFor();
    }));

  it("inbox page: compose dialog", () =>
    shoot("inbox-compose", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}`);
      await page.getByRole("button", { name: "Compose", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New message" });
      await dialog.getByLabel("To").fill("someone@example.com, not-an-address");
      await dialog.getByLabel("Subject").fill("Your order has shipped");
      await dialog.getByLabel("Message").fill("It is on its way.");
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await dialog.getByText("Address 2: must be an email address").waitFor();
    }));

  it("org settings: outbound mail", () =>
    shoot(
      "org-outbound",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/orgs/${world.orgId}/settings`);
        await page.getByRole("textbox", { name: "Allowed recipients" }).fill("@acme.example\nqa@example.com\n*.staging.example");
        await page.getByRole("button", { name: "Save outbound settings" }).scrollIntoViewIfNeeded();
      },
      { height: 1000 },
    ));

  it("snapshots list", () =>
    shoot("snapshots", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/snapshots");
      await page.getByTestId("snapshot-row").nth(1).waitFor();
    }));

  it("snapshot: baseline against the latest comparison", () =>
    shoot(
      "snapshot",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/snapshots/${snapshotId}`);
        await page.getByRole("img", { name: "Changed pixels at 600 px, light" }).waitFor({ timeout: 30_000 });
        await page.getByRole("img", { name: "Changed pixels at 600 px, dark" }).waitFor({ timeout: 30_000 });
      },
      { height: 1600 },
    ));

  it("snapshot at 360 px", () =>
    shoot(
      "snapshot-narrow",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/snapshots/${snapshotId}`);
        await page.getByRole("img", { name: "Changed pixels at 600 px, light" }).waitFor({ timeout: 30_000 });
      },
      { width: 360, height: 1400 },
    ));

  it("reader at 360 px: preview", () =>
    shoot(
      "mail-preview-narrow",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}/mail/${welcomeId}?tab=preview`);
        await page.locator('[data-testid="preview-image"][data-scheme="dark"]').waitFor({ timeout: 40_000 });
      },
      { width: 360, height: 1000 },
    ));
});
