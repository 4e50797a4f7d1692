import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole, connectBrowser } from "./console/browser";
import { capture, SCREENSHOTS } from "./console/screenshots";
import { SharedSystem } from "./shared-system";
import { System, TRUSTED_DOMAIN } from "./system";
import { signIn, userBrowser } from "./console/world";
import { registerUser, STRONG_PASSWORD } from "./world";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * A new user's first hour, as `npm start` leaves them: a system whose setup is incomplete, whose
 * base URL is `http://localhost:<port>` and whose setup token is the one `npm start` gives the
 * tenancy (BB_SETUP_TOKEN). The summary is printed by start.mjs's own code (deploy/local/summary.mjs)
 * for this system; from there on the user only has Chromium: opens the console on 127.0.0.1 or
 * localhost, goes through setup with the printed token, lands where an inbox can be created,
 * creates one, and sees a mail sent to it over SMTP.
 * With BB_CONSOLE_SCREENSHOTS set it also takes its pages' pictures (console/screenshots.ts: `docs`
 * writes docs/console/, `compare` compares with docs/console/ and fails on a difference).
 */
describe("the console: the first hour on a fresh `npm start`", () => {
  const shared = SharedSystem.attach();
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectBrowser(shared);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The summary start.mjs prints for a running system (its own function, in a process of its own as npm start runs it). */
  function printedSummary(system: System, token: string): string[] {
    const script = [
      `const m = await import(${JSON.stringify(path.join(ROOT, "deploy", "local", "summary.mjs"))});`,
      `const port = ${JSON.stringify(String(system.ports["api-gateway"]))};`,
      `const lines = m.summaryLines({ gatewayPort: port, smtpPort: ${JSON.stringify(String(system.ports.smtp))},`,
      `  trustedDomains: ${JSON.stringify(TRUSTED_DOMAIN)}, setupToken: ${JSON.stringify(token)}, setupComplete: await m.setupCompleted(port) });`,
      `process.stdout.write(lines.join("\\n"));`,
    ].join("\n");
    return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).split("\n");
  }
  const urlsOf = (lines: string[]) => lines.flatMap((l) => l.match(/\bhttps?:\/\/\S+/g) ?? []);

  it.each([
    ["127.0.0.1", "types the token of the printed link"],
    ["localhost", "follows the printed link"],
  ])(
    "when a new user opens http://%s:<port>/ and %s, then setup leads to a first inbox and its first mail",
    async (host, how) => {
      const token = randomBytes(24).toString("base64url");
      const fresh = await System.start({ tenancy: { BB_SETUP_TOKEN: token } }, { publicHost: "localhost" });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
      try {
        const summary = printedSummary(fresh, token);
        const port = fresh.ports["api-gateway"];
        const [consoleUrl, setupUrl] = urlsOf(summary);
        expect(consoleUrl).toBe(`http://localhost:${port}/`);
        expect(setupUrl).toBe(`http://localhost:${port}/setup?token=${token}`);

        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        const origin = `http://${host}:${port}`;
        await page.goto(`${origin}/`);
        await page.getByRole("heading", { name: "Set up BurnBox" }).waitFor();
        expect(new URL(page.url()).pathname).toBe("/setup");
        // the page says where the token is
        await page.getByText(/npm start printed a link with the token/).waitFor();
        const tokenBox = page.getByRole("textbox", { name: "Setup token" });
        if (how === "follows the printed link") {
          await page.goto(setupUrl!);
          await page.getByRole("heading", { name: "Set up BurnBox" }).waitFor();
          expect(await tokenBox.inputValue()).toBe(token);
          // the token does not stay in the address bar (history, screen shares)
          expect(page.url()).toBe(`${origin}/setup`);
          await shootBothSchemes(page, "setup-from-link");
        } else {
          await tokenBox.fill(new URL(setupUrl!).searchParams.get("token")!);
        }
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole("button", { name: "Next" }).click();

        const email = `owner-${randomBytes(3).toString("hex")}@example.test`;
        const domain = `first-${randomBytes(3).toString("hex")}.${TRUSTED_DOMAIN}`;
        await page.getByLabel("Name").fill("New Owner");
        await page.getByLabel("Email").fill(email);
        await page.getByRole("textbox", { name: "Password", exact: true }).fill(STRONG_PASSWORD);
        await page.getByRole("textbox", { name: "Repeat the password" }).fill(STRONG_PASSWORD);
        await page.getByRole("button", { name: "Next" }).click();
        await page.getByRole("textbox", { name: "Organization name" }).fill("Acme");
        await page.getByRole("textbox", { name: "First team (optional)" }).fill("QA");
        await page.getByRole("textbox", { name: "First domain (optional)" }).fill(domain);
        await page.getByRole("button", { name: "Next" }).click();
        await page.getByRole("button", { name: "Finish setup" }).click();

        // signed in, on a page that offers the first inbox on the new domain
        await page.getByRole("button", { name: /^Account menu for / }).waitFor();
        await page.getByRole("button", { name: "Create your first inbox" }).click();
        const dialog = page.getByRole("dialog", { name: "New inbox" });
        const alias = `signup-${randomBytes(2).toString("hex")}`;
        await dialog.getByLabel("Alias").fill(alias);
        await dialog.getByRole("button", { name: "Create inbox" }).click();
        await page.waitForURL(/\/inboxes\/[0-9a-f-]{36}$/);
        const address = `${alias}@${domain}`;
        await expect(page.getByTestId("inbox-address").textContent()).resolves.toBe(address);
        await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();

        const subject = `Welcome ${randomBytes(3).toString("hex")}`;
        const sent = await sendMail(fresh.ports.smtp, { from: "app@example.com", to: address, subject, text: "Your code is 482913." });
        expect(sent.data?.code).toBe(250);
        await page.getByTestId("mail-row").filter({ hasText: subject }).waitFor();

        // a reload keeps the session (the refresh cookie, checked against this origin)
        await page.reload();
        await page.getByTestId("mail-row").filter({ hasText: subject }).waitFor();
        // and once setup is done, the summary has no setup link any more
        expect(printedSummary(fresh, token).join("\n")).not.toContain("token=");
      } finally {
        await context.close();
        await fresh.stop();
      }
    },
    300_000,
  );
});

/**
 * Where the console says something is missing, it offers the action to whoever may take it: an
 * owner without a team is offered to create one, an owner whose team has no domain to assign one
 * (the team's page opens with the assign form).
 */
describe("the console: what is missing, offered to the owner who may add it", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  it("when an owner has no team, then the inbox page offers to create one; when the team has no domain, to assign one, which opens the team's assign form", async () => {
    const owner = await registerUser(api, "owner");
    const org = await api<{ id: string }>("POST", "/orgs", { token: owner.token, body: { name: `Org ${randomBytes(3).toString("hex")}` } });
    expect(org.status).toBe(201);
    const domain = await api<{ id: string }>("POST", `/orgs/${org.body.id}/domains`, {
      token: owner.token,
      body: { domain_name: `empty-${randomBytes(3).toString("hex")}.${TRUSTED_DOMAIN}` },
    });
    expect(domain.status).toBe(201);
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, owner.email);
      await page.goto("/inboxes");
      await page.getByText("No inboxes yet").waitFor();
      await page.getByText(/An inbox belongs to a team/).waitFor();
      await shootBothSchemes(page, "inboxes-no-team");
      await page.getByRole("link", { name: "Create a team" }).click();
      const create = page.getByRole("dialog", { name: "Create a team" });
      await create.getByRole("textbox", { name: "Name" }).fill("QA");
      await create.getByRole("button", { name: "Create team" }).click();
      await page.waitForURL(/\/teams\/[0-9a-f-]{36}$/);

      await page.goto("/inboxes");
      await page.getByText(/An inbox needs a domain assigned to the team/).waitFor();
      expect(await page.getByText(/Ask an owner/).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await shootBothSchemes(page, "inboxes-no-domain");
      await page.getByRole("link", { name: "Assign a domain to QA" }).click();
      const assign = page.getByRole("dialog", { name: "Assign a domain to QA" });
      await assign.waitFor();
      expect(new URL(page.url()).search).toBe("");
    } finally {
      await context.close();
    }
  });
});

/** `<name>-light.png` and `<name>-dark.png` of the page as it is, when screenshots are asked for (BB_CONSOLE_SCREENSHOTS). */
async function shootBothSchemes(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForLoadState("networkidle");
    await capture(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
