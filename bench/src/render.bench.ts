/**
 * The cost of a render (extensions section 12), beside a bare baseline, in one run.
 *
 * - The renderer: the service as it runs (services/renderer's startService, in this process) on the
 *   real NATS and Debian's Chromium, called as the inbox service calls it (its rendererClient: the
 *   request over NATS, the PNG back in chunks). One fresh browser context per render, scripts off,
 *   every request refused, the page's limits checked.
 * - The bare baseline: plain Chromium through playwright-core (launched with --no-sandbox only),
 *   a new page per render, setContent, a full-page PNG screenshot: the least a render can cost.
 *
 * The same mail (a typical ~8 KiB transactional HTML: table layout, inline styles, a button, a
 * dark-mode rule, images blocked) at each width (1280, 600, 375), light scheme. Per width and side,
 * after a warm-up, BENCH_RENDERS sequential renders: p50 and p95 of the wall time, CPU ms per render
 * (this process plus every process it started, from /proc, so Chromium's browser, GPU and renderer
 * processes count); then, in 10 more renders of their own (reading every process's PSS is not
 * free, so not during the timed ones), memory per render: the peak memory of the browser's
 * processes during a render less theirs before it, as the sum of their PSS (shared pages split
 * among the processes sharing them), sampled every 25 ms; the median over those renders. Then throughput: for
 * BENCH_SECONDS, the renderer at its configured concurrency (render.concurrency, 2) and the bare
 * baseline at the same number of renders in flight, at 600 px: renders per second, and renders
 * per CPU second (the throughput per core, what one core's worth of CPU gives).
 *
 * The machine is shared: figures are noisy; compare the two sides within one run.
 * Run: pnpm --filter @burnbox/bench render   (BENCH_RENDERS, default 40; BENCH_SECONDS, default 15;
 * CHROMIUM_PATH, default /usr/bin/chromium; NATS_URL, default nats://127.0.0.1:4222)
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium, type Browser } from "playwright-core";
import { startTestService } from "@burnbox/test-kit";
import { rendererClient } from "../../services/inbox/src/adapters/renderer";
import { startService } from "../../services/renderer/src/app";
import { loadRendererConfig } from "../../services/renderer/src/config";
import { pngSize } from "../../services/renderer/src/domain/page";
import { machine, percentile } from "./stats";

const RENDERS = Number(process.env.BENCH_RENDERS ?? 40);
const WARMUP = 5;
/** Renders per width and side whose memory is sampled (apart from the timed ones), and how often. */
const MEMORY_RENDERS = 10;
const SAMPLE_MS = 25;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WIDTHS = [1280, 600, 375] as const;
const CLOCK_TICKS = 100; // USER_HZ on Linux

// ---- the processes this one started (Chromium's), from /proc

/** The pids below `pid` (children, their children, …), from /proc/<pid>/task/<tid>/children. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let children = "";
      try {
        children = readFileSync(`/proc/${p}/task/${tid}/children`, "utf8");
      } catch {
        continue;
      }
      for (const c of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
        out.push(c);
        walk(c);
      }
    }
  };
  walk(pid);
  return out;
}

/** utime + stime + cutime + cstime of one process in ms (the children it reaped count too). */
function procStat(pid: number): { cpuMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    return { cpuMs: (ticks * 1000) / CLOCK_TICKS };
  } catch {
    return null;
  }
}

/** CPU ms used so far by this process and every live process below it. */
function treeCpuMs(): number {
  const self = process.cpuUsage();
  let ms = (self.user + self.system) / 1000;
  for (const pid of descendants(process.pid)) ms += procStat(pid)?.cpuMs ?? 0;
  return ms;
}

/** The proportional set size (PSS: shared pages split among the processes that share them) of one process, in bytes. */
function pss(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The memory of every process below this one (the browser's), as the sum of their PSS, in bytes. */
function childrenMemory(): number {
  let bytes = 0;
  for (const pid of descendants(process.pid)) bytes += pss(pid);
  return bytes;
}

// ---- the mail

function typicalMail(): string {
  const row = (inner: string) => `<tr><td style="padding:16px 32px;font-size:16px;line-height:24px;color:#333333">${inner}</td></tr>`;
  const link = (path: string, text: string) => `<a href="https://acme.test/${path}" style="color:#1a73e8;text-decoration:none">${text}</a>`;
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>Verify your email</title><style>
body{margin:0;padding:0;background:#f4f4f7;font-family:Helvetica,Arial,sans-serif}.wrap{width:100%;max-width:600px;margin:0 auto;background:#ffffff}
.btn{display:inline-block;padding:12px 24px;border-radius:4px;background:#1a73e8;color:#ffffff}.code{font-size:32px;letter-spacing:8px}
@media (prefers-color-scheme: dark){body{background:#111111}.wrap{background:#1e1e1e}td{color:#eeeeee!important}.btn{background:#8ab4f8;color:#111111}}
@media only screen and (max-width:600px){.wrap{width:100%!important}}</style></head>`;
  const rows = [
    row(`<img src="https://cdn.acme.test/logo.png" width="120" height="32" alt="Acme">`),
    row(`<h1 style="font-size:24px;margin:0">Confirm your email address</h1>`),
    row(`Hi Alice, thanks for signing up for Acme. Enter this verification code in the app to finish creating your account:`),
    row(`<div class="code" style="font-family:monospace;font-weight:bold">482913</div>`),
    row(
      `This code expires in 10 minutes. Or confirm with one click: ${link("verify?t=AbC1", `<span class="btn">Confirm my email</span>`)}`,
    ),
    row(`If you did not create an account, you can ignore this email. Questions? ${link("help", "Visit our help center")}.`),
    row(
      `${link("blog", "Blog")} · ${link("docs", "Docs")} · ${link("status", "Status")} · ${link("prefs", "Preferences")} · ${link("u", "Unsubscribe")}`,
    ),
  ];
  let html = `${head}<body><table role="presentation" class="wrap" cellpadding="0" cellspacing="0" border="0">${rows.join("\n")}</table>`;
  const filler = row(`Tip: you can change how often we write to you at any time in your account settings. ${link("tips", "Learn more")}`);
  while (html.length + filler.length < 8 * 1024 - 20) html += `<table role="presentation" class="wrap">${filler}</table>`;
  return `${html}</body></html>`;
}

const HTML = typicalMail();

// ---- the two sides

type RenderOnce = (width: number) => Promise<Buffer>;

interface Side {
  name: string;
  render: RenderOnce;
  stop(): Promise<void>;
}

async function rendererSide(): Promise<Side & { concurrency: number }> {
  const t = await startTestService({
    prefix: "rbench",
    load: (o) => loadRendererConfig({}, o),
    start: startService,
    overrides: () => ({ chromium: { executable_path: CHROMIUM }, render: { timeout: "30s" }, log: { level: "warn" } }),
  });
  const client = rendererClient(t.infra.nc, t.ns, { timeoutMs: 60_000 });
  return {
    name: "renderer",
    concurrency: t.config.render.concurrency,
    render: (width) => client.renderEmail({ html: HTML, width: width as 1280 | 600 | 375, scheme: "light", images: "blocked" }),
    stop: () => t.stop(),
  };
}

async function bareSide(): Promise<Side> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], headless: true });
  return {
    name: "bare chromium",
    render: async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.setContent(HTML, { waitUntil: "load" });
        return await page.screenshot({ type: "png", fullPage: true });
      } finally {
        await page.close();
      }
    },
    stop: () => browser.close(),
  };
}

interface Figures {
  p50: number;
  p95: number;
  cpuMs: number;
  memMiB: number;
  height: number;
}

/** BENCH_RENDERS sequential renders at `width`, after a warm-up. */
async function measure(side: Side, width: number): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await side.render(width);
  const check = (png: Buffer) => {
    const size = pngSize(png);
    if (size?.width !== width) throw new Error(`${side.name}: a ${width} px render came back ${size?.width ?? "not a PNG"}`);
    return size.height;
  };
  // time and CPU: nothing else running in this process
  const times: number[] = [];
  let height = 0;
  const cpuBefore = treeCpuMs();
  for (let i = 0; i < RENDERS; i++) {
    const started = performance.now();
    const png = await side.render(width);
    times.push(performance.now() - started);
    height = check(png);
  }
  const cpuMs = (treeCpuMs() - cpuBefore) / RENDERS;
  // memory: its own renders, since reading every process's PSS is not free
  const mem: number[] = [];
  for (let i = 0; i < MEMORY_RENDERS; i++) {
    const idle = childrenMemory();
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, childrenMemory())), SAMPLE_MS);
    const png = await side.render(width);
    clearInterval(sampler);
    peak = Math.max(peak, childrenMemory());
    mem.push((peak - idle) / 2 ** 20);
    check(png);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), cpuMs, memMiB: percentile(mem, 50), height };
}

/** Renders at 600 px with `inFlight` at once for BENCH_SECONDS: renders per second and per CPU second. */
async function throughput(side: Side, inFlight: number): Promise<{ perSecond: number; perCpuSecond: number; renders: number }> {
  const until = performance.now() + SECONDS * 1000;
  let renders = 0;
  const cpuBefore = treeCpuMs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await side.render(600);
        renders += 1;
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  const cpuS = (treeCpuMs() - cpuBefore) / 1000;
  return { perSecond: renders / wallS, perCpuSecond: renders / cpuS, renders };
}

const f1 = (n: number) => n.toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "n/a");

async function main(): Promise<void> {
  process.stdout.write(
    `${machine()}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " ",
      )}; Chromium ${CHROMIUM}; ${RENDERS} timed and ${MEMORY_RENDERS} memory renders per width and side after ${WARMUP} warm-up; mail ${HTML.length} chars\n`,
  );
  const results: Record<string, Record<number, Figures>> = { renderer: {}, "bare chromium": {} };
  let concurrency = 2;
  const tput: Record<string, Awaited<ReturnType<typeof throughput>>> = {};
  // one side at a time (its browser alone on the machine), the renderer first, then the baseline
  for (const make of [rendererSide, bareSide]) {
    const side = await make();
    try {
      if ("concurrency" in side) concurrency = side.concurrency as number;
      for (const width of WIDTHS) results[side.name]![width] = await measure(side, width);
      tput[side.name] = await throughput(side, concurrency);
    } finally {
      await side.stop();
    }
  }
  const r = results.renderer!;
  const b = results["bare chromium"]!;
  process.stdout.write(
    "\nper render, light scheme (wall ms p50 / p95; CPU ms, this process and its browser; memory: peak added PSS, MiB)\n",
  );
  process.stdout.write(
    `${"width".padEnd(7)}${"side".padEnd(15)}${"p50".padStart(8)}${"p95".padStart(8)}${"CPU".padStart(8)}${"mem".padStart(8)}${"height".padStart(8)}\n`,
  );
  for (const width of WIDTHS) {
    for (const [name, fig] of [
      ["renderer", r[width]!],
      ["bare chromium", b[width]!],
    ] as const) {
      process.stdout.write(
        `${String(width).padEnd(7)}${name.padEnd(15)}${f1(fig.p50).padStart(8)}${f1(fig.p95).padStart(8)}${f1(fig.cpuMs).padStart(8)}${f1(fig.memMiB).padStart(8)}${String(fig.height).padStart(8)}\n`,
      );
    }
    process.stdout.write(
      `${String(width).padEnd(7)}${"ratio".padEnd(15)}${ratio(r[width]!.p50, b[width]!.p50).padStart(8)}${ratio(r[width]!.p95, b[width]!.p95).padStart(8)}${ratio(r[width]!.cpuMs, b[width]!.cpuMs).padStart(8)}${ratio(r[width]!.memMiB, b[width]!.memMiB).padStart(8)}\n`,
    );
  }
  process.stdout.write(`\nthroughput at 600 px, ${concurrency} renders in flight, ${SECONDS} s each\n`);
  for (const name of ["renderer", "bare chromium"]) {
    const t = tput[name]!;
    process.stdout.write(
      `${name.padEnd(15)}${f1(t.perSecond).padStart(7)} renders/s   ${f1(t.perCpuSecond).padStart(7)} renders per CPU second (per core)   (${t.renders} renders)\n`,
    );
  }
  process.stdout.write(
    `${"ratio".padEnd(15)}${ratio(tput.renderer!.perSecond, tput["bare chromium"]!.perSecond).padStart(7)}             ${ratio(tput.renderer!.perCpuSecond, tput["bare chromium"]!.perCpuSecond).padStart(7)}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
