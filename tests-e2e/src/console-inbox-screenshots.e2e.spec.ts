import { existsSync } from "node:fs";
import type { Page } from "playwright-core";
import { apiClient, sendMail } from "./clients";
import { attachConsole } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signIn } from "./console/world";
import { mimeMessage, PNG_1X1, sendRaw, tinyPdf } from "./console-mail-fixtures";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/**
 * Screenshots of the inbox list, an inbox page with mail and the reader, light and dark, wide and
 * at 360 px (see console/screenshots.ts); skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs`
 * writes docs/console/, `compare` compares the pictures with docs/console/ and fails on a
 * difference, any other value writes .test-results/console-screenshots/):
 *
 *   BB_CONSOLE_SCREENSHOTS=docs npx jest --projects tests-e2e --runInBand --forceExit tests-e2e/src/console-inbox-screenshots.e2e.spec.ts
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console's inboxes: screenshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inbox: { id: string; full_address: string };
  let emailId: string;
  const FROM = "Acme <noreply@acme.example>";

  beforeAll(async () => {
    world = await teamWithDomain(api);
    const made = [];
    for (const alias of ["signup-test", "password-reset", "newsletter"]) {
      const r = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
        token: world.owner.token,
        body: { domain_assignment_id: world.assignmentId, alias, ttl: alias === "newsletter" ? "3m" : "2h" },
      });
      if (r.status !== 201) throw new Error(`inbox: ${r.status}`);
      made.push(r.body);
    }
    inbox = made[0]!;
    const mails = [
      {
        subject: "Welcome to Acme",
        text: "Thanks for signing up. Your account is ready.",
        html: "<h1>Welcome!</h1><p>Thanks for signing up. Your account is ready.</p>",
      },
      { subject: "Your invoice for November", text: "Invoice attached.", html: "<p>Your invoice is attached.</p>", attachments: true },
      {
        subject: "Your verification code",
        text: "Your verification code is 482913.\nOr confirm: https://app.acme.example/verify?token=q8Zt1\n",
        html: '<!doctype html><html><body><div style="font-family:sans-serif"><h2>Confirm your email</h2><p>Your verification code is <b style="font-size:20px">482913</b>.</p><p><a href="https://app.acme.example/verify?token=q8Zt1">Confirm my email</a></p><img src="https://cdn.acme.example/logo.png" alt="Acme logo"></div></body></html>',
      },
    ];
    for (const m of mails)
      await sendRaw(
        system.ports.smtp,
        "noreply@acme.example",
        inbox.full_address,
        mimeMessage({
          from: FROM,
          to: inbox.full_address,
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.attachments
            ? {
                attachments: [
                  { contentType: "application/pdf", filename: "invoice-2026-11.pdf", body: tinyPdf() },
                  { contentType: "image/png", filename: "logo.png", body: PNG_1X1 },
                ],
              }
            : {}),
        }),
      );
    const list = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
      token: world.owner.token,
    });
    emailId = list.body.data.find((e) => e.subject === "Your verification code")!.id;
    // one read, so the list shows both states
    const welcome = list.body.data.find((e) => e.subject === "Welcome to Acme")!.id;
    await api("PATCH", `/emails/${welcome}`, { token: world.owner.token, body: { is_read: true } });
  });

  const shoot = async (name: string, open: (page: Page) => Promise<void>, options?: { width?: number; height?: number }) => {
    // each picture signs in twice (light, dark): end the earlier browser sessions, or the session limit is met
    expect((await api("DELETE", "/auth/sessions", { token: world.owner.token })).status).toBeLessThan(300);
    const files = await shootBoth(ui.browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };
  const live = (page: Page) => page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();

  it("inbox list", () =>
    shoot("inboxes", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/inboxes");
      await page.getByTestId("inbox-row").nth(2).waitFor();
    }));

  it("new inbox form", () =>
    shoot("inbox-new", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/inboxes?new=1");
      await page.getByRole("dialog", { name: "New inbox" }).getByLabel("Alias").fill("checkout-flow");
    }));

  it("inbox page with live mail", () =>
    shoot("inbox", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}`);
      await live(page);
      await page.getByTestId("mail-row").nth(2).waitFor();
    }));

  it("reader: HTML", () =>
    shoot("mail-html", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${emailId}`);
      await page.frameLocator('[data-testid="mail-html"]').getByText("Confirm your email").waitFor();
    }));

  it("reader: codes and links", () =>
    shoot("mail-codes", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${emailId}?tab=extracted`);
      await page.getByTestId("code-value").first().waitFor();
    }));

  it("reader: HTML check", () =>
    shoot(
      "mail-html-check",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}/mail/${emailId}`);
        await page.getByRole("tab", { name: "HTML check" }).click();
        await page.getByTestId("html-check-score").waitFor();
        // the first issue's notes open, as a reader would look at them
        await page
          .getByRole("button", { name: /^Notes on / })
          .first()
          .click();
        await page.getByRole("region", { name: /^Notes on / }).waitFor();
        await page.mouse.move(0, 0);
      },
      { height: 1000 },
    ));

  it("reader: authentication results", () =>
    shoot("mail-auth", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${emailId}`);
      await page.getByRole("tab", { name: "Authentication" }).click();
      await page.getByRole("table", { name: "Authentication results" }).waitFor();
    }));

  it("reader: link check", () =>
    shoot("mail-link-check", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto(`/inboxes/${inbox.id}/mail/${emailId}?tab=extracted`);
      await page.getByRole("button", { name: "Check links" }).click();
      await page.getByTestId("link-check-row").first().waitFor();
    }));

  it("inbox page: SMTP behaviour and log", async () => {
    const target = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: `smtp-test-${Date.now().toString(36)}`, ttl: "2h" },
    });
    expect(target.status).toBe(201);
    const patched = await api("PATCH", `/inboxes/${target.body.id}`, {
      token: world.owner.token,
      body: { smtp_behaviour: { reject_rcpt: { code: 550, message: "mailbox unavailable" }, delay_ms: 250 } },
    });
    expect(patched.status).toBe(200);
    const refused = await sendMail(system.ports.smtp, {
      from: "noreply@acme.example",
      to: target.body.full_address,
      subject: "hi",
      text: "hi",
    });
    expect(refused.rcpt).toEqual({ code: 550, text: "mailbox unavailable" });
    await shoot(
      "inbox-smtp",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${target.body.id}`);
        const log = page.getByRole("region", { name: "SMTP log" });
        await log.getByTestId("smtp-attempt").first().waitFor();
        await log.getByText("Transcript", { exact: true }).first().click();
        await page.getByRole("region", { name: "SMTP behaviour" }).scrollIntoViewIfNeeded();
      },
      { height: 1400 },
    );
  });

  it("inbox page at 360 px", () =>
    shoot(
      "inbox-narrow",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}`);
        await live(page);
        await page.getByTestId("mail-row").nth(2).waitFor();
      },
      { width: 360, height: 760 },
    ));

  it("reader at 360 px", () =>
    shoot(
      "mail-narrow",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/inboxes/${inbox.id}/mail/${emailId}`);
        await page.frameLocator('[data-testid="mail-html"]').getByText("Confirm your email").waitFor();
      },
      { width: 360, height: 760 },
    ));
});
