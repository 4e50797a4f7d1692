// Playwright Test's own configuration for the example. The browser is Debian's Chromium
// (CHROMIUM_PATH for another), never one downloaded by `playwright install`.
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumPath } from "../env";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: path.join(tmpdir(), "burnbox-example-playwright-results"),
  timeout: 60_000,
  workers: 1,
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
    // BURNBOX_URL, BURNBOX_API_KEY and BURNBOX_DOMAIN_ASSIGNMENT_ID, or: burnbox: { baseUrl, apiKey, domainAssignmentId }
  },
});
