import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { SharedSystem } from "../shared-system";
import { userBrowser } from "./world";

/**
 * Screenshots of console pages in light and dark, for docs/console/ (shown in the README):
 *
 *   BB_CONSOLE_SCREENSHOTS=docs npx jest --projects tests-e2e --runInBand --forceExit tests-e2e/src/console-screenshots.e2e.spec.ts
 *
 * (BB_CONSOLE_SCREENSHOTS=1 writes to .test-results/console-screenshots instead.) Each page is a
 * `shoot(name, open)` in console-screenshots.e2e.spec.ts: `open` brings a fresh browser (its own
 * cookies) to the page and waits for what must show.
 */
const ROOT = path.resolve(__dirname, "..", "..", "..");
export const SCREENSHOTS = process.env.BB_CONSOLE_SCREENSHOTS ?? "";
export const SCREENSHOT_DIR =
  SCREENSHOTS === "docs" ? path.join(ROOT, "docs", "console") : path.join(ROOT, ".test-results", "console-screenshots");

export type Opener = (page: Page) => Promise<void>;

/** `<dir>/<name>-light.png` and `<dir>/<name>-dark.png` of the page `open` brings up; the files written. */
export async function shootBoth(
  browser: Browser,
  system: SharedSystem,
  name: string,
  open: Opener,
  options: { width?: number; height?: number } = {},
): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const written: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    const { context, page } = await userBrowser(browser, system, {
      colorScheme,
      width: options.width ?? 1280,
      height: options.height ?? 800,
    });
    try {
      await open(page);
      // nothing half-loaded or mid-transition in the picture
      await page.waitForLoadState("networkidle");
      await page.evaluate(() =>
        (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready.then(() => undefined),
      );
      const file = path.join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`);
      await page.screenshot({ path: file, fullPage: false, animations: "disabled" });
      written.push(file);
    } finally {
      await context.close();
    }
  }
  return written;
}
