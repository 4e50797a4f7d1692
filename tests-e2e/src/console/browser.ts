import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from "playwright-core";
import type { SharedSystem } from "../shared-system";

/**
 * One Chromium for the whole e2e run: Debian's /usr/bin/chromium (never a downloaded browser),
 * started by the runner the first time a console test asks for it (the shared system's control
 * server, `POST /browser`), and stopped with the system. Each test file connects to it over its
 * WebSocket endpoint and works in contexts of its own (fresh cookies and storage per test).
 */
export const CHROMIUM = process.env.BB_E2E_CHROMIUM ?? "/usr/bin/chromium";

/** Runner side: starts the browser server (once). */
export async function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    // no setuid sandbox in containers; no GPU here
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/** Test side: the run's browser (started on first use). Close it with `browser.close()` in afterAll: that disconnects only. */
export async function connectBrowser(system: SharedSystem): Promise<Browser> {
  return chromium.connect(await system.browserEndpoint());
}

/**
 * A console test file's hold on the run's browser: connects in a `beforeAll` and disconnects in an
 * `afterAll` of the describe block it is called in (call it before the block's own hooks, which
 * may then use `ui.browser`). Disconnecting closes the file's contexts; a later `context.close()`
 * is a no-op.
 */
export function attachConsole(system: SharedSystem): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await connectBrowser(system);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser(): Browser {
      if (!browser) throw new Error("attachConsole: the browser is connected in beforeAll; use ui.browser inside hooks and tests");
      return browser;
    },
  };
}

export interface ConsoleContextOptions {
  colorScheme?: "light" | "dark";
  /** px; 1280 by default (360 for the narrow layout) */
  width?: number;
  height?: number;
}

/** A fresh browsing context on the system's console: its own cookies and storage, links resolved against the gateway. */
export async function consoleContext(browser: Browser, system: SharedSystem, options: ConsoleContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: system.gatewayUrl,
    colorScheme: options.colorScheme ?? "light",
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** A page in a fresh context; closing its context is the caller's (`await page.context().close()`). */
export async function consolePage(browser: Browser, system: SharedSystem, options: ConsoleContextOptions = {}): Promise<Page> {
  return (await consoleContext(browser, system, options)).newPage();
}
