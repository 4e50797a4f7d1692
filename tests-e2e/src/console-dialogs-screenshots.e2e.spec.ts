import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { apiClient } from "./clients";
import { attachConsole } from "./console/browser";
import { SCREENSHOTS, shootBoth } from "./console/screenshots";
import { signInAfresh } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/**
 * Screenshots of dialogs ending in Cancel and an action (DialogActions), light and dark (see
 * console/screenshots.ts): a destructive confirmation, two forms and one whose action waits for a
 * report; skipped unless BB_CONSOLE_SCREENSHOTS is set (`docs` writes docs/console/, `compare`
 * compares the pictures with docs/console/ and fails on a difference, any other value writes
 * .test-results/console-screenshots/).
 */
const describeShots = SCREENSHOTS ? describe : describe.skip;

describeShots("the console: dialog screenshots", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  const shoot = async (name: string, open: (page: Page) => Promise<void>) => {
    const files = await shootBoth(ui.browser, system, name, open);
    expect(files.every((f) => existsSync(f))).toBe(true);
  };

  it("dialogs", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `shots-${randomBytes(3).toString("hex")}`);
    // every picture signs in anew, the earlier browser sessions ended
    const signIn = (page: Page) => signInAfresh(page, api, world.owner.token, world.owner.email);
    await shoot("dialog-delete-inbox", async (page) => {
      await signIn(page);
      await page.goto(`/inboxes/${inbox.id}`);
      await page.getByRole("button", { name: `Delete ${inbox.full_address}` }).click();
      await page.getByRole("dialog", { name: "Delete this inbox?" }).getByRole("button", { name: "Delete inbox" }).waitFor();
    });
    await shoot("dialog-extend-inbox", async (page) => {
      await signIn(page);
      await page.goto(`/inboxes/${inbox.id}`);
      await page.getByRole("button", { name: `Extend ${inbox.full_address}` }).click();
      await page
        .getByRole("dialog", { name: `Extend ${inbox.full_address}` })
        .getByRole("button", { name: "Extend", exact: true })
        .waitFor();
    });
    await shoot("dialog-add-webhook", async (page) => {
      await signIn(page);
      await page.goto("/webhooks");
      await page.getByRole("button", { name: "Add webhook" }).first().click();
      await page.getByRole("dialog", { name: "Add a webhook" }).getByRole("button", { name: "Add webhook" }).waitFor();
    });
    await shoot("dialog-delete-team", async (page) => {
      await signIn(page);
      await page.goto(`/teams/${world.teamId}`);
      await page.getByRole("table", { name: "Team members" }).waitFor();
      await page.getByRole("button", { name: "Delete team" }).click();
      await page.getByRole("list", { name: "What deleting removes" }).waitFor();
    });
  }, 600_000);
});
