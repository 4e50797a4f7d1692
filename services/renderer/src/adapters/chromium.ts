import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Route } from "playwright-core";
import type { RenderImages, RenderScheme } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import { decideRequest } from "../domain/request-policy";
import { RenderError } from "../domain/render-error";
import { picturedHeight } from "../domain/page";
import type { ImageFetcher } from "./image-fetcher";

/**
 * Chromium's flags. Besides the usual headless ones, the browser's network stack is pointed at a
 * proxy that does not exist and its resolver maps every name to nothing: whatever a page might
 * make Chromium open on its own (a preconnect, a DNS prefetch, a request that escaped
 * interception) reaches nothing. Every request the renderer answers goes through `route`.
 */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-features=Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions,AutofillServerCommunication",
  "--dns-prefetch-disable",
  "--no-first-run",
  "--no-pings",
  "--metrics-recording-only",
  "--mute-audio",
  "--hide-scrollbars",
  "--font-render-hinting=none",
  "--force-color-profile=srgb",
  "--proxy-server=socks5://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
];

export interface PageJob {
  html: string;
  width: number;
  scheme: RenderScheme;
  images: RenderImages;
}

export interface PageLimits {
  timeoutMs: number;
  maxHeight: number;
  maxDomNodes: number;
  maxLayoutWidth: number;
  maxImages: number;
}

export interface Pictured {
  png: Buffer;
  width: number;
  height: number;
  truncated: boolean;
}

interface Held {
  browser: Browser;
  renders: number;
  active: number;
  retired: boolean;
}

/**
 * The replica's one browser and the renders in it. Each render gets a fresh context (its own
 * cookies, cache and storage: nothing of one mail is seen by the next), JavaScript off, service
 * workers blocked, reduced motion, device scale 1, and a route that answers every request by
 * `decideRequest`. After `restartAfter` renders the browser is replaced (the old one closes when
 * its last render ends); a browser that crashed is relaunched on the next render.
 */
export class BrowserHost {
  private current: Held | null = null;
  private launching: Promise<Held> | null = null;
  private readonly env: Record<string, string>;

  constructor(
    private readonly opts: {
      executablePath: string;
      fontconfigFile: string;
      restartAfter: number;
      fetchImage: ImageFetcher;
      logger: Logger;
      /** The process environment the browser starts with (main.ts passes its own); ours are set over it. */
      env?: Record<string, string | undefined>;
    },
  ) {
    const fontconfig = opts.fontconfigFile || path.join(__dirname, "..", "..", "fonts", "fonts.conf");
    const inherited = Object.fromEntries(Object.entries(opts.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
    this.env = { ...inherited, FONTCONFIG_FILE: fontconfig, TZ: "UTC", LANG: "en_US.UTF-8" };
  }

  /** Launches the browser now (start-up), so the first render does not pay for it. */
  async start(): Promise<void> {
    await this.held();
  }

  /** Renders since the current browser started, and how many browsers were launched (metrics, tests). */
  launches = 0;

  private async held(): Promise<Held> {
    if (this.current && !this.current.retired && this.current.browser.isConnected()) return this.current;
    if (!this.launching) {
      this.launching = chromium
        .launch({ executablePath: this.opts.executablePath, args: CHROMIUM_ARGS, env: this.env, headless: true, timeout: 30_000 })
        .then((browser) => {
          const held: Held = { browser, renders: 0, active: 0, retired: false };
          this.launches += 1;
          browser.on("disconnected", () => {
            if (this.current === held) this.current = null;
            if (!held.retired) this.opts.logger.warn("the browser went away; the next render launches another");
          });
          this.current = held;
          return held;
        })
        .finally(() => {
          this.launching = null;
        });
    }
    return this.launching;
  }

  async render(job: PageJob, limits: PageLimits): Promise<Pictured> {
    const held = await this.held().catch((err: unknown) => {
      throw new RenderError("failed", `the browser could not start: ${(err as Error).message}`);
    });
    held.renders += 1;
    held.active += 1;
    if (held.renders >= this.opts.restartAfter) held.retired = true;
    let context: BrowserContext | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      context = await held.browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: job.width, height: 800 },
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
        colorScheme: job.scheme,
        reducedMotion: "reduce",
        forcedColors: "none",
        serviceWorkers: "block",
        acceptDownloads: false,
        bypassCSP: false,
        locale: "en-US",
        timezoneId: "UTC",
        offline: false,
      });
      const ctx = context;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new RenderError("timeout", `the render took longer than ${limits.timeoutMs} ms`));
          void ctx.close().catch(() => undefined);
        }, limits.timeoutMs);
      });
      return await Promise.race([this.picture(ctx, job, limits), deadline]);
    } catch (err) {
      if (err instanceof RenderError) throw err;
      throw new RenderError("failed", `the page could not be rendered: ${(err as Error).message.split("\n")[0]}`);
    } finally {
      clearTimeout(timer);
      held.active -= 1;
      await context?.close().catch(() => undefined);
      if (held.retired && held.active === 0) await held.browser.close().catch(() => undefined);
    }
  }

  private async picture(context: BrowserContext, job: PageJob, limits: PageLimits): Promise<Pictured> {
    let fetched = 0;
    await context.route("**/*", (route: Route) => {
      const request = route.request();
      const decision = decideRequest(request.url(), request.resourceType(), job.images);
      if (decision === "serve-inline") return route.continue().catch(() => undefined);
      if (decision === "fetch-image" && fetched < limits.maxImages) {
        fetched += 1;
        return this.opts
          .fetchImage(request.url())
          .then((image) =>
            image ? route.fulfill({ status: 200, contentType: image.contentType, body: image.body }) : route.abort("blockedbyclient"),
          )
          .catch(() => route.abort("blockedbyclient").catch(() => undefined));
      }
      return route.abort("blockedbyclient").catch(() => undefined);
    });
    const page = await context.newPage();
    page.on("dialog", (d) => void d.dismiss().catch(() => undefined));
    await page.setContent(job.html, { waitUntil: "load", timeout: limits.timeoutMs });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const { metrics } = await cdp.send("Performance.getMetrics");
    const nodes = metrics.find((m) => m.name === "Nodes")?.value ?? 0;
    if (nodes > limits.maxDomNodes) throw new RenderError("too_large", `the page has more than ${limits.maxDomNodes} elements`);
    const layout = await cdp.send("Page.getLayoutMetrics");
    const size = layout.cssContentSize ?? layout.contentSize;
    if (size.width > limits.maxLayoutWidth) throw new RenderError("too_large", `the page is wider than ${limits.maxLayoutWidth} px`);
    await cdp.detach().catch(() => undefined);
    const { height, truncated } = picturedHeight(size.height, limits.maxHeight);
    const png = await page.screenshot({
      type: "png",
      fullPage: true,
      clip: { x: 0, y: 0, width: job.width, height },
      animations: "disabled",
      caret: "hide",
      scale: "css",
      timeout: limits.timeoutMs,
    });
    return { png, width: job.width, height, truncated };
  }

  async stop(): Promise<void> {
    const launching = this.launching;
    if (launching) await launching.catch(() => undefined);
    const held = this.current;
    this.current = null;
    if (held) await held.browser.close().catch(() => undefined);
  }
}
