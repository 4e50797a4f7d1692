import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { Browser, Page } from "playwright-core";
import type { SharedSystem } from "../shared-system";
import { userBrowser } from "./world";

/**
 * Screenshots of console pages in light and dark, for docs/console/ (shown in the README):
 *
 *   BB_CONSOLE_SCREENSHOTS=docs npx jest --projects tests-e2e --runInBand --forceExit tests-e2e/src/console-screenshots.e2e.spec.ts
 *
 * (BB_CONSOLE_SCREENSHOTS=1, or any other value, writes to .test-results/console-screenshots
 * instead.) Each page is a `shoot(name, open)` in console-screenshots.e2e.spec.ts: `open` brings a
 * fresh browser (its own cookies) to the page and waits for what must show.
 *
 * BB_CONSOLE_SCREENSHOTS=compare takes the same pictures into .test-results/console-screenshots
 * and compares each with docs/console/<name>.png (pixelmatch): a picture that differs in more than
 * COMPARE_TOLERANCE of its pixels (or has no docs picture, or another size) fails the test file,
 * after its last test, with the names and pixel counts, beside a `<name>.diff.png` (differences
 * in red). What differs from run to run is left out of the comparison, not pinned: the worlds'
 * names carry random suffixes (domains, orgs, addresses), each browser its own client IP, and the
 * pages show server times relative to now, so the regions that show them (every <time>, and text
 * or an input value that holds a random token, an IP, a date, a clock time or a countdown:
 * PER_RUN) are found in the page and painted out in both pictures before they are compared. A
 * change of layout around such a region still shows, and so does the layout that per-run text
 * moves: a table whose columns size to an address or a time shifts its neighbours by a few pixels
 * from run to run, which the tolerance does not absorb (names the same in every run would).
 */
const ROOT = path.resolve(__dirname, "..", "..", "..");
export const SCREENSHOTS = process.env.BB_CONSOLE_SCREENSHOTS ?? "";
const COMPARE = SCREENSHOTS === "compare";
const DOCS_DIR = path.join(ROOT, "docs", "console");
export const SCREENSHOT_DIR = SCREENSHOTS === "docs" ? DOCS_DIR : path.join(ROOT, ".test-results", "console-screenshots");

/**
 * The share of a picture's pixels that may differ from docs/console's: text next to a left-out
 * region moves by the few pixels its per-run neighbour is wider or narrower (an address's copy
 * button); a changed word, control or colour is more.
 */
const COMPARE_TOLERANCE = Number(process.env.BB_CONSOLE_SCREENSHOTS_TOLERANCE ?? "0.001");

/**
 * Text of this run, not of the page: a token of 6 or more letters and digits, one a digit at
 * least (the random hex of domains, orgs, addresses and ids, which may be all digits; API key
 * secrets), an IPv4 address (each browser comes from its own), a date, a clock time, a relative
 * time or a countdown.
 */
const PER_RUN = [
  String.raw`(?=[A-Za-z0-9_-]*\d)\b[A-Za-z0-9_-]{6,}\b`,
  String.raw`\b\d{1,3}(\.\d{1,3}){3}\b`,
  String.raw`\b\d{4}-\d{2}-\d{2}\b`,
  String.raw`\b\d{1,2}:\d{2}\b`,
  String.raw`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* \d{1,2}\b`,
  String.raw`\b(seconds?|minutes?|hours?|days?|weeks?|months?|years?) ago\b|\bjust now\b|\bin \d+ (second|minute|hour|day)s?\b`,
  String.raw`\b(s|min|h|d) left\b`,
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page's regions of per-run text (run in the page: the browser's DOM, hence a string). */
const PER_RUN_BOXES = `((sources) => {
  const patterns = sources.map((s) => new RegExp(s));
  const perRun = (text) => patterns.some((p) => p.test(text));
  const boxes = [];
  const add = (rects) => {
    for (const r of rects) if (r.width > 0 && r.height > 0) boxes.push({ x: r.x, y: r.y, width: r.width, height: r.height });
  };
  for (const t of document.querySelectorAll("time")) add(t.getClientRects());
  for (const i of document.querySelectorAll("input, textarea")) if (perRun(i.value)) add(i.getClientRects());
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!perRun(n.textContent || "")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    add(range.getClientRects());
  }
  return boxes;
})(${JSON.stringify(PER_RUN)})`;

/** Compare mode: every picture of this test file that differs from docs/console's, in the order taken. */
const differences: string[] = [];
// the file fails once, after its last test, naming every picture that differs: a test that takes
// several pictures goes on past the first difference, so that each is compared
if (COMPARE)
  afterAll(() => {
    if (differences.length > 0) throw new Error(`screenshots differ from docs/console:\n  ${differences.join("\n  ")}`);
  });

/**
 * Takes `<file>.png` (`<name>-<scheme>`) of the page as it is now into SCREENSHOT_DIR; in compare
 * mode, compares it with docs/console's. Every screenshot suite takes its pictures through this.
 */
export async function capture(page: Page, file: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const out = path.join(SCREENSHOT_DIR, `${file}.png`);
  const perRun = COMPARE ? await page.evaluate<Box[]>(PER_RUN_BOXES) : [];
  await page.screenshot({ path: out, fullPage: false, animations: "disabled" });
  const difference = COMPARE ? compareWithDocs(file, out, perRun) : null;
  if (difference) differences.push(difference);
  return out;
}

/** How the picture differs from docs/console's, or null when within the tolerance. */
function compareWithDocs(name: string, taken: string, perRun: Box[]): string | null {
  const docs = path.join(DOCS_DIR, `${name}.png`);
  if (!existsSync(docs)) return `${name}.png: no docs/console picture to compare with`;
  const expected = PNG.sync.read(readFileSync(docs));
  const actual = PNG.sync.read(readFileSync(taken));
  const { width, height } = actual;
  if (expected.width !== width || expected.height !== height)
    return `${name}.png: ${width}×${height}, docs/console has ${expected.width}×${expected.height}`;
  for (const box of perRun) {
    paintOut(expected, box);
    paintOut(actual, box);
  }
  const diff = new PNG({ width, height });
  const differing = pixelmatch(expected.data, actual.data, diff.data, width, height, { threshold: 0.1 });
  const share = differing / (width * height);
  if (share <= COMPARE_TOLERANCE) return null;
  const diffFile = path.join(SCREENSHOT_DIR, `${name}.diff.png`);
  writeFileSync(diffFile, PNG.sync.write(diff));
  return `${name}.png: ${differing} pixels differ (${(share * 100).toFixed(2)}%), see ${path.relative(ROOT, diffFile)}`;
}

/** One grey box over a per-run region (2 px around it, for anti-aliasing), the same in both pictures. */
function paintOut(png: PNG, box: Box): void {
  const x0 = Math.max(0, Math.floor(box.x) - 2);
  const y0 = Math.max(0, Math.floor(box.y) - 2);
  const x1 = Math.min(png.width, Math.ceil(box.x + box.width) + 2);
  const y1 = Math.min(png.height, Math.ceil(box.y + box.height) + 2);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * 4;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = 128;
      png.data[i + 3] = 255;
    }
}

export type Opener = (page: Page) => Promise<void>;

/** `<dir>/<name>-light.png` and `<dir>/<name>-dark.png` of the page `open` brings up; the files written. */
export async function shootBoth(
  browser: Browser,
  system: SharedSystem,
  name: string,
  open: Opener,
  options: { width?: number; height?: number } = {},
): Promise<string[]> {
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
      written.push(await capture(page, `${name}-${colorScheme}`));
    } finally {
      await context.close();
    }
  }
  return written;
}
