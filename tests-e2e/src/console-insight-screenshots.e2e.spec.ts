import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { connectBrowser } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signInAfresh } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/**
 * Screenshots of the audit log and analytics pages, light and dark (see console/screenshots.ts);
 * skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare` compares the
 * pictures with docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/).
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: audit log and analytics screenshots", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser(system);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const shoot = async (name: string, open: (page: Page) => Promise<void>, options?: { width?: number; height?: number }) => {
    const files = await shootBoth(browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  /** An org with a few inboxes, keys and mails from several senders, so the log and the charts have something to show. */
  async function furnished() {
    const world = await teamWithDomain(api);
    const hex = () => randomBytes(3).toString("hex");
    const inboxes = [];
    for (const label of ["signup", "reset", "billing"])
      inboxes.push(await createInbox(api, world.owner.token, world.assignmentId, `${label}-${hex()}`));
    const key = await api<{ id: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "CI signup tests", scopes: ["team.inboxes.view", "team.inboxes.create"] },
    });
    await api("PATCH", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys/${key.body.id}`, {
      token: world.owner.token,
      body: { is_active: false },
    });
    const mails: Array<[string, number]> = [
      ["noreply@github.example", 4],
      ["billing@stripe.example", 2],
      ["hello@news.example", 1],
    ];
    let sent = 0;
    for (const [from, count] of mails)
      for (let i = 0; i < count; i++) {
        await sendMail(system.ports.smtp, {
          from,
          to: inboxes[i % inboxes.length]!.full_address,
          subject: `Message ${i + 1}`,
          text: "hello",
        });
        sent++;
      }
    await waitFor(
      async () =>
        (await api<{ total_emails: number }>("GET", `/orgs/${world.orgId}/analytics`, { token: world.owner.token })).body.total_emails >=
        sent,
      { what: "the mails in the analytics", timeoutMs: 30_000 },
    );
    return world;
  }

  // eight pictures, each from a fresh sign-in, on a shared machine
  it("audit and analytics pages", async () => {
    const world = await furnished();
    const signIn = (page: Page) => signInAfresh(page, api, world.owner.token, world.owner.email);
    await shoot(
      "audit",
      async (page) => {
        await signIn(page);
        await page.goto("/audit");
        await page.getByRole("table", { name: "Audit entries" }).getByText("API key created").first().waitFor();
      },
      { height: 900 },
    );
    await shoot(
      "audit-narrow",
      async (page) => {
        await signIn(page);
        await page.goto("/audit?category=inbox");
        await page.getByRole("table", { name: "Audit entries" }).getByText("Inbox created").first().waitFor();
      },
      { width: 360, height: 760 },
    );
    await shoot(
      "analytics",
      async (page) => {
        await signIn(page);
        await page.goto("/analytics?days=7");
        await page
          .getByRole("figure", { name: "Emails per day", exact: true })
          .getByText("7 emails in the last 7 days", { exact: false })
          .waitFor();
      },
      { height: 1100 },
    );
    await shoot(
      "analytics-team-narrow",
      async (page) => {
        await signIn(page);
        await page.goto("/analytics?scope=team&days=7");
        await page
          .getByRole("figure", { name: "Emails per day", exact: true })
          .getByText("7 emails in the last 7 days", { exact: false })
          .waitFor();
      },
      { width: 360, height: 900 },
    );
  }, 300_000);
});
