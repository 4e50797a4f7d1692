/**
 * The console's live inbox page: from the SMTP 250 to the new row on an open inbox page (issue 27:
 * new mail shown within 100 ms of the WebSocket frame). Three figures per mail, on one clock (the
 * page's marks are wall-clock via performance.timeOrigin; runner and browser share the machine):
 *   250 → frame   the SMTP intake's 250 to the email.received frame reaching the page
 *   frame → row   the frame to the row on screen (the next animation frame after React commits it)
 *   250 → row     the two together
 * The page marks `bb:frame:<email id>` when the frame arrives and measures `bb:row:<email id>` from
 * it when the row first paints (src/pages/inboxes/useInboxStream.ts, src/pages/mail/EmailList.tsx).
 * Run: pnpm --filter @burnbox/bench console-live  (after node deploy/local/build.mjs; Postgres, Redis, NATS up)
 */
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { apiClient, buildMessage, registerOperator, SmtpSession, STRONG_PASSWORD, System, teamWithDomain } from "@burnbox/tests-e2e";
import { machine, percentile } from "./stats";

/** The installation's operator (`admin.emails`), registered first so that setup is complete. */
const OPERATOR = "operator@bench.test";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

async function main(): Promise<void> {
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
  });
  const browser = await chromium.launch({ executablePath: process.env.BB_E2E_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    // setup complete (the setup token made the first admin), or the console sends every page to /setup
    await registerOperator(system, OPERATOR);
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: `live-${randomBytes(3).toString("hex")}`, ttl: "1h" },
    });
    if (inbox.status !== 201) throw new Error(`inbox: ${inbox.status}`);
    const context = await browser.newContext({ baseURL: system.gatewayUrl });
    const login = await context.request.post("/api/v1/auth/login", {
      data: { email: world.owner.email, password: STRONG_PASSWORD, use_cookie: true },
    });
    if (!login.ok()) throw new Error(`login: ${login.status()}`);
    const page = await context.newPage();
    await page.goto(`/inboxes/${inbox.body.id}`);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor({ timeout: 30_000 });
    process.stdout.write(`machine: ${machine()}\n`);

    const smtp = await SmtpSession.open(system.ports.smtp);
    const toFrame: number[] = [];
    const toRow: number[] = [];
    const total: number[] = [];
    try {
      for (let i = 0; i < RUNS + 3; i++) {
        const subject = `bench ${i} ${randomBytes(3).toString("hex")}`;
        await smtp.command("RSET");
        await smtp.command("MAIL FROM:<bench@acme.example>");
        await smtp.command(`RCPT TO:<${inbox.body.full_address}>`);
        const reply = await smtp.data(buildMessage({ from: "bench@acme.example", to: inbox.body.full_address, subject, text: "live" }));
        const at250 = Date.now();
        if (reply.code !== 250) throw new Error(`DATA: ${reply.code} ${reply.text}`);
        const row = page.getByTestId("mail-row").filter({ hasText: subject });
        await row.waitFor({ timeout: 10_000 });
        // the measure is taken in the animation frame after the row's commit: it may follow the
        // row's visibility by a frame
        const marks = await page
          .waitForFunction(
            () => {
              const measures = performance.getEntriesByType("measure").filter((m) => m.name.startsWith("bb:row:"));
              const last = measures[measures.length - 1];
              if (!last) return null;
              performance.clearMeasures();
              return { frameAt: performance.timeOrigin + last.startTime, rowAt: performance.timeOrigin + last.startTime + last.duration };
            },
            undefined,
            { timeout: 2_000 },
          )
          .then((handle) => handle.jsonValue())
          .catch(() => null);
        if (!marks) throw new Error("no bb:row measure: is the console built with the live marks?");
        if (i < 3) continue; // warm-up
        toFrame.push(marks.frameAt - at250);
        toRow.push(marks.rowAt - marks.frameAt);
        total.push(marks.rowAt - at250);
      }
    } finally {
      await smtp.quit();
    }
    const line = (label: string, xs: number[]) =>
      `${label}: p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})\n`;
    process.stdout.write(line("SMTP 250 → WebSocket frame", toFrame));
    process.stdout.write(line("frame → row painted", toRow));
    process.stdout.write(line("SMTP 250 → row painted", total));
    await context.close();
  } finally {
    await browser.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
