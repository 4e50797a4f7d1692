import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { attachConsole } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signInAfresh } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createHook, logOf, Receiver } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

/**
 * Screenshots of the team tools and notifications pages, light and dark (see
 * console/screenshots.ts); skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes
 * docs/console/, `compare` compares the pictures with docs/console/ and fails on a difference, any
 * other value writes .test-results/console-screenshots/).
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: team tools and notifications screenshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let rx: Receiver;
  beforeAll(async () => {
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
  });

  const shoot = async (name: string, open: Parameters<typeof shootBoth>[3], options?: Parameters<typeof shootBoth>[4]) => {
    const files = await shootBoth(ui.browser, system, name, open, options);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  /** A team with three keys (one used, one disabled), a webhook with a delivery, and notifications. */
  async function furnished() {
    const world = await teamWithDomain(api);
    const keysPath = `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`;
    const made: Array<{ id: string; raw_key: string }> = [];
    for (const [name, scopes] of [
      ["CI signup tests", ["team.inboxes.view", "team.inboxes.create", "team.emails.view"]],
      ["Staging smoke", ["team.inboxes.view", "team.emails.view"]],
      ["Old laptop", ["team.view"]],
    ] as const) {
      const res = await api<{ id: string; raw_key: string }>("POST", keysPath, {
        token: world.owner.token,
        body: { name, scopes, expires_in: "90d" },
      });
      made.push(res.body);
    }
    await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}/inboxes`, { token: made[0]!.raw_key });
    await api("PATCH", `${keysPath}/${made[2]!.id}`, { token: world.owner.token, body: { is_active: false } });
    const hook = await createHook(api, world, rx.url, ["email.received", "inbox.created"]);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `shots-${randomBytes(3).toString("hex")}`);
    await sendMail(system.ports.smtp, { from: "billing@example.org", to: inbox.full_address, subject: "Your invoice", text: "hi" });
    await sendMail(system.ports.smtp, {
      from: "noreply@example.org",
      to: inbox.full_address,
      subject: "Verify your address",
      text: "code 123456",
    });
    await logOf(api, world, hook.id, 3);
    await waitFor(async () => (await api<{ total: number }>("GET", "/notifications", { token: world.owner.token })).body.total >= 3, {
      what: "notifications",
    });
    return { world, hookId: hook.id };
  }

  it("team pages", async () => {
    const { world, hookId } = await furnished();
    // every picture signs in anew, the earlier browser sessions ended
    const signIn = (page: Parameters<typeof signInAfresh>[0], email: string) => signInAfresh(page, api, world.owner.token, email);
    await shoot("api-keys", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/api-keys");
      await page.getByRole("row").filter({ hasText: "CI signup tests" }).waitFor();
    });
    await shoot("webhooks", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/webhooks");
      await page.getByRole("link", { name: `Delivery log of ${rx.url}` }).waitFor();
    });
    await shoot(
      "webhook-deliveries",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto(`/webhooks/${hookId}`);
        await page
          .getByRole("button", { name: /^Redeliver / })
          .first()
          .waitFor();
      },
      { height: 900 },
    );
    await shoot("notifications", async (page) => {
      await signIn(page, world.owner.email);
      await page.goto("/notifications");
      await page.getByText("From billing@example.org: Your invoice").waitFor();
    });
    await shoot(
      "api-keys-narrow",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto("/api-keys");
        await page.getByRole("row").filter({ hasText: "CI signup tests" }).waitFor();
      },
      { width: 360, height: 760 },
    );
    await shoot(
      "api-key-create",
      async (page) => {
        await signIn(page, world.owner.email);
        await page.goto("/api-keys");
        await page.getByRole("button", { name: "Create key" }).first().click();
        const dialog = page.getByRole("dialog", { name: "Create an API key" });
        await dialog.getByRole("checkbox", { name: "team.inboxes.view" }).check();
        // check() scrolls the dialog when the box was not in view yet (it sometimes is, sometimes not): the picture starts at the name
        await dialog.evaluate((el) => void ((el as unknown as { scrollTop: number }).scrollTop = 0));
      },
      { height: 1000 },
    );
  });
});
