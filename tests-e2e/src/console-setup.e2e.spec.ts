import { existsSync } from "node:fs";
import { randomBytes, randomInt } from "node:crypto";
import type { Server } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { seriousViolations } from "./console/axe";
import { connectBrowser } from "./console/browser";
import { expectNoSidewaysScroll, tabTo } from "./console/narrow";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { close, intakeRelay } from "./relays";
import { SharedSystem } from "./shared-system";
import { System, TRUSTED_DOMAIN } from "./system";
import { STRONG_PASSWORD } from "./world";

/**
 * The first-run setup wizard in Chromium. The shared system is set up already (it has system
 * admins), so this file starts a system of its own on fresh databases, without `setup.token`: the
 * tenancy prints the token in its log, and the test reads it there as an operator would. Its
 * tenancy may reach 127.77.0.0/16 (where the test relays to the intake, so the mailer test can
 * succeed); 127.0.0.1 stays refused. The browser is the run's shared one.
 * With BB_CONSOLE_SCREENSHOTS set it also takes its pages' pictures (console/screenshots.ts: `docs`
 * writes docs/console/, `compare` compares with docs/console/ and fails on a difference).
 */
const ALLOWED = "127.77.0.0/16";

describe("the console: first-run setup on a fresh installation", () => {
  const shared = SharedSystem.attach();
  let fresh: System;
  let browser: Browser;
  let relay: Server;
  let relayAddress: string;

  beforeAll(async () => {
    browser = await connectBrowser(shared);
    fresh = await System.start({ tenancy: { BB_INFRA_UNSAFE_ALLOWED_TARGETS: ALLOWED, BB_ENCRYPTION_KEY: "5c".repeat(32) } });
    relayAddress = `127.77.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    relay = await intakeRelay(relayAddress, fresh.ports.smtp);
  }, 360_000);
  afterAll(async () => {
    if (relay) await close(relay);
    await browser?.close();
    await fresh?.stop();
  });

  const freshContext = (colorScheme: "light" | "dark" = "light", width = 1280): Promise<BrowserContext> =>
    browser.newContext({ baseURL: fresh.gatewayUrl, colorScheme, viewport: { width, height: 900 }, reducedMotion: "reduce" });

  /** The token from the tenancy's log line, as an operator finds it. */
  async function tokenFromLog(): Promise<string> {
    let token = "";
    await waitFor(
      () => {
        const line = (fresh.logs.get("tenancy") ?? []).find((l) => l.includes("first-run setup token"));
        if (line) token = (JSON.parse(line) as { setup_token: string }).setup_token;
        return token !== "";
      },
      { what: "the setup token in the tenancy's log" },
    );
    return token;
  }

  async function fillSteps(page: Page, token: string, who: { email: string; org: string; team: string; domain: string }) {
    await page.getByRole("textbox", { name: "Setup token" }).fill(token);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Name").fill("Root Operator");
    await page.getByLabel("Email").fill(who.email);
    await page.getByRole("textbox", { name: "Password", exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole("textbox", { name: "Repeat the password" }).fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("textbox", { name: "Organization name" }).fill(who.org);
    await page.getByRole("textbox", { name: "First team (optional)" }).fill(who.team);
    await page.getByRole("textbox", { name: "First domain (optional)" }).fill(who.domain);
    await page.getByRole("button", { name: "Next" }).click();
  }

  /** docs/console/setup-*.png (the first step) and setup-mailer-*.png (the last, after a mailer test), before anything is set up. */
  async function screenshots(token: string, who: Parameters<typeof fillSteps>[2]) {
    const system = fresh as unknown as SharedSystem;
    const files = [
      ...(await shootBoth(browser, system, "setup", async (page) => {
        await page.goto("/");
        await page.getByRole("list", { name: "Data stores" }).waitFor();
      })),
      ...(await shootBoth(
        browser,
        system,
        "setup-mailer",
        async (page) => {
          await page.goto("/setup");
          await fillSteps(page, token, who);
          await page.getByRole("switch", { name: "Configure an outbound mailer" }).check({ force: true });
          await page.getByRole("textbox", { name: "SMTP host" }).fill(relayAddress);
          await page.getByRole("textbox", { name: "Port" }).fill("2525");
          await page.getByRole("checkbox", { name: "Use TLS" }).uncheck();
          await page.getByRole("textbox", { name: "From address" }).fill("burnbox@example.test");
          await page.getByRole("button", { name: "Test the mailer" }).click();
          await page.getByText("Connection works").waitFor();
        },
        { height: 1100 },
      )),
    ];
    expect(files.every((f) => existsSync(f))).toBe(true);
  }

  /** At 360 px in dark mode: the wizard's steps do not scroll sideways, and its Next is reached with Tab and works with Enter (nothing is sent before the last step). */
  async function narrowAndKeyboard(token: string) {
    const context = await freshContext("dark", 360);
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto("/setup");
      await page.getByRole("list", { name: "Data stores" }).waitFor();
      await expectNoSidewaysScroll(page);
      await tabTo(page, page.getByRole("textbox", { name: "Setup token" }));
      await page.keyboard.type(token);
      await tabTo(page, page.getByRole("button", { name: "Next" }));
      await page.keyboard.press("Enter");
      await page.getByRole("textbox", { name: "Repeat the password" }).waitFor();
      await expectNoSidewaysScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it("when nothing is set up, then every page leads to the wizard, which tests the mailer, refuses a wrong token, sets everything up, and is never offered again", async () => {
    const token = await tokenFromLog();
    const api = apiClient(fresh.gatewayUrl);
    const who = {
      email: `root-${randomBytes(3).toString("hex")}@example.test`,
      org: "Acme Testing",
      team: "QA",
      domain: `setup-${randomBytes(3).toString("hex")}.${TRUSTED_DOMAIN}`,
    };
    if (SCREENSHOTS) await screenshots(token, who);
    await narrowAndKeyboard(token);
    const context = await freshContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      for (const path of ["/", "/login", "/inboxes"]) {
        await page.goto(path);
        await page.getByRole("heading", { name: "Set up BurnBox" }).waitFor();
        expect(new URL(page.url()).pathname).toBe("/setup");
      }
      // the data stores it runs on, without credentials
      await page
        .getByRole("list", { name: "Data stores" })
        .getByText(/^PostgreSQL: /)
        .waitFor();
      expect(await page.getByRole("list", { name: "Data stores" }).textContent()).not.toMatch(/password|:\/\/[^/]*@/i);
      expect(await seriousViolations(page)).toEqual([]);

      // a wrong token: the last step's answer sends the operator back to the token, with the API's message
      await fillSteps(page, `wrong-${token}`, who);
      await page.getByRole("button", { name: "Finish setup" }).click();
      await page.getByRole("alert").filter({ hasText: "Not allowed" }).waitFor();
      await page.getByRole("textbox", { name: "Setup token" }).waitFor();
      expect((await api<{ completed: boolean }>("GET", "/setup/status")).body.completed).toBe(false);

      // the right one; the other steps kept what was entered
      await page.getByRole("textbox", { name: "Setup token" }).fill(token);
      await page.getByRole("button", { name: "Next" }).click();
      expect(await page.getByLabel("Email").inputValue()).toBe(who.email);
      await page.getByRole("button", { name: "Next" }).click();
      expect(await page.getByRole("textbox", { name: "Organization name" }).inputValue()).toBe(who.org);
      await page.getByRole("button", { name: "Next" }).click();

      // the mailer: a refused address says so in words; the relay to the intake answers
      await page.getByRole("switch", { name: "Configure an outbound mailer" }).check({ force: true });
      await page.getByRole("textbox", { name: "SMTP host" }).fill("127.0.0.1");
      await page.getByRole("textbox", { name: "Port" }).fill("2525");
      await page.getByRole("checkbox", { name: "Use TLS" }).uncheck();
      await page.getByRole("textbox", { name: "From address" }).fill("burnbox@example.test");
      await page.getByRole("button", { name: "Test the mailer" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: "Could not connect" })
        .getByText(/host is not allowed/)
        .waitFor();
      await page.getByRole("textbox", { name: "SMTP host" }).fill(relayAddress);
      await page.getByRole("button", { name: "Test the mailer" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: "Connection works" })
        .getByText(/SMTP connection successful \(answered in \d+ ms\)/)
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Finish setup" }).click();
      // signed in as the new administrator, in the new org and team
      await page.getByRole("button", { name: /^Account menu for / }).waitFor();
      await waitFor(
        async () =>
          (await page.getByRole("combobox", { name: "Organisation" }).inputValue()) === who.org &&
          (await page.getByRole("combobox", { name: "Team" }).inputValue()) === who.team,
        { what: "the new org and team chosen in the header" },
      );

      const status = await api<{ completed: boolean; datastores?: unknown }>("GET", "/setup/status");
      expect(status.body).toEqual({ completed: true });
      const login = await api<{ user: { is_system_admin: boolean }; tokens: { access_token: string } }>("POST", "/auth/login", {
        body: { email: who.email, password: STRONG_PASSWORD },
      });
      expect(login.body.user.is_system_admin).toBe(true);
      const orgs = await api<{ data: Array<{ id: string; name: string; role: string }> }>("GET", "/orgs", {
        token: login.body.tokens.access_token,
      });
      expect(orgs.body.data).toEqual([expect.objectContaining({ name: who.org, role: "owner" })]);
      const domains = await api<{ data: Array<{ domain_name: string }> }>("GET", `/orgs/${orgs.body.data[0]!.id}/domains`, {
        token: login.body.tokens.access_token,
      });
      expect(domains.body.data.map((d) => d.domain_name)).toEqual([who.domain]);
      const mailer = await api<{ host: string; port: number }>("GET", "/admin/config/mailer", { token: login.body.tokens.access_token });
      expect(mailer.body).toMatchObject({ host: relayAddress, port: 2525 });

      // never again: /setup leads into the console, and a new visitor gets the sign-in page
      await page.goto("/setup");
      await page.getByRole("button", { name: /^Account menu for / }).waitFor();
      expect(new URL(page.url()).pathname).not.toBe("/setup");
      const stranger = await freshContext();
      try {
        const other = await stranger.newPage();
        await other.goto("/setup");
        await other.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
      } finally {
        await stranger.close();
      }
    } finally {
      await context.close();
    }
  });
});
