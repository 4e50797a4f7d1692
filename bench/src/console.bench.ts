/**
 * The console's cold load on the local system: time from navigation to the first page
 * interactive (the login page signed out; the first signed-in page with a session cookie), the
 * bytes transferred, and the JavaScript of that first page gzipped.
 * Run: pnpm --filter @burnbox/bench console   (after node deploy/local/build.mjs; Postgres, Redis, NATS up)
 * Uses Debian's /usr/bin/chromium (BB_E2E_CHROMIUM for another), a fresh context (empty cache) per load.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { apiClient, createInbox, registerOperator, STRONG_PASSWORD, System, teamWithDomain } from "@burnbox/tests-e2e";
import { machine, percentile } from "./stats";

/** The installation's operator (`admin.emails`), registered first so that setup is complete. */
const OPERATOR = "operator@bench.test";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** BENCH_TRACE=1 prints every response of each load: when it was asked for and when its headers came. */
const TRACE = process.env.BENCH_TRACE === "1";
const CONSOLE_DIST = path.resolve(__dirname, "..", "..", "services", "api-gateway", "dist", "console");

interface Load {
  ms: number;
  transferred: number;
  scripts: string[];
}

/** Navigates and waits until `ready` shows; the transfer is what the network delivered (encoded bytes). */
async function coldLoad(context: BrowserContext, url: string, ready: (page: Page) => Promise<void>): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  let transferred = 0;
  cdp.on("Network.loadingFinished", (e: { encodedDataLength: number }) => (transferred += e.encodedDataLength));
  const scripts: string[] = [];
  const t0 = performance.now();
  const trace: string[] = [];
  const started = new Map<string, number>();
  cdp.on("Network.requestWillBeSent", (e: { requestId: string }) => started.set(e.requestId, performance.now() - t0));
  cdp.on("Network.responseReceived", (e: { requestId: string; response: { url: string; status: number } }) => {
    const u = new URL(e.response.url);
    if (u.pathname.endsWith(".js")) scripts.push(u.pathname);
    if (TRACE) {
      const at = (performance.now() - t0).toFixed(0).padStart(5);
      const from = (started.get(e.requestId) ?? 0).toFixed(0).padStart(5);
      trace.push(`  ${from} → ${at} ms  ${e.response.status} ${u.pathname}`);
    }
  });
  await page.goto(url, { waitUntil: "commit" });
  await ready(page);
  const ms = performance.now() - t0;
  await page.close();
  if (TRACE) process.stdout.write(`${url} in ${ms.toFixed(0)} ms:\n${trace.join("\n")}\n`);
  return { ms, transferred, scripts };
}

/** The gzipped size of the named built files (level 9, as the build precompresses them). */
function gzipped(files: string[]): number {
  return [...new Set(files)].reduce((n, f) => n + gzipSync(readFileSync(path.join(CONSOLE_DIST, f))).length, 0);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    identity: { BB_DEFAULTS_MAX_SESSIONS_PER_USER: "1000000" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
  });
  const browser = await chromium.launch({ executablePath: process.env.BB_E2E_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    // setup complete (the setup token made the first admin), or the console sends every page to /setup
    await registerOperator(system, OPERATOR);
    const api = apiClient(system.gatewayUrl);
    // a member of one org and team with a domain and a few inboxes: the list has rows to show
    const world = await teamWithDomain(api);
    const user = world.owner;
    for (let i = 0; i < 5; i++) await createInbox(api, user.token, world.assignmentId, `bench-${i}`);
    process.stdout.write(`machine: ${machine()}\n`);
    const report = async (label: string, load: () => Promise<Load>) => {
      await load(); // warm the server side (the browser side is cold each time)
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await load());
      const ms = loads.map((l) => l.ms);
      const last = loads[loads.length - 1]!;
      process.stdout.write(
        `${label}: p50 ${percentile(ms, 50).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms (n=${RUNS}); transferred ${kb(last.transferred)}; JS ${kb(gzipped(last.scripts))} gzipped in ${new Set(last.scripts).size} files\n`,
      );
    };

    await report("login page, signed out", async () => {
      const context = await browser.newContext({ baseURL: system.gatewayUrl });
      try {
        return await coldLoad(context, "/login", (page) => page.getByRole("button", { name: "Sign in", exact: true }).waitFor());
      } finally {
        await context.close();
      }
    });

    const signedIn = (remember: boolean) => async () => {
      const context = await browser.newContext({ baseURL: system.gatewayUrl });
      try {
        const login = await context.request.post("/api/v1/auth/login", {
          data: { email: user.email, password: STRONG_PASSWORD, use_cookie: true },
        });
        if (!login.ok()) throw new Error(`login: ${login.status()}`);
        // a returning member's browser remembers the org and team chosen last time (no HTTP cache still)
        if (remember) {
          const choice = JSON.stringify({ orgId: world.orgId, teamId: world.teamId });
          await context.addInitScript(
            (value) =>
              (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
                "burnbox.workspace",
                value,
              ),
            choice,
          );
        }
        // interactive: the team's inboxes listed (not only the page's heading)
        return await coldLoad(context, "/inboxes", (page) =>
          page.getByRole("list", { name: "Inboxes" }).getByRole("listitem").first().waitFor(),
        );
      } finally {
        await context.close();
      }
    };
    await report("first signed-in page (the inbox list with its rows), session cookie present, fresh profile", signedIn(false));
    await report("the same for a returning member (org and team remembered, HTTP cache empty)", signedIn(true));
  } finally {
    await browser.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
