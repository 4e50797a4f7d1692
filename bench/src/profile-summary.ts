/**
 * Summarises `.cpuprofile` files (node --cpu-prof, e.g. written by a benchmark run with
 * BB_BENCH_PROFILE=inbox-smtp): the functions with the most self time, and the packages or source
 * files where the time is spent, as shares of the sampled time.
 * Run: pnpm --filter @burnbox/bench profile-summary <file-or-dir>... [--top 30] [--window <from>-<to>]
 * `--window` keeps the samples taken between two monotonic-clock times in microseconds (what
 * `process.hrtime` and V8's profiler both count from; `bench gateway-auth` prints each phase's), so
 * a summary covers one phase of a run and not the process's start.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

function files(args: string[]): string[] {
  return args.flatMap((a) =>
    statSync(a).isDirectory()
      ? readdirSync(a)
          .filter((f) => f.endsWith(".cpuprofile"))
          .map((f) => path.join(a, f))
      : [a],
  );
}

/** Where a frame's code lives: a package name, a workspace path, or node's own code. */
function place(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  const m = /(services|packages)\/[^/]+\/(src|dist)\/.*$/.exec(url);
  return m ? m[0] : url;
}

function summarise(file: string, top: number, window: [number, number] | null): void {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) return;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)").reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const fns = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === "(idle)") continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const key = `${functionName || "(anonymous)"} ${place(url, functionName)}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + t);
    const where = place(url, functionName);
    places.set(where, (places.get(where) ?? 0) + t);
  }
  const pct = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(`\n${file}\nbusy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled\n-- self time by place\n`);
  for (const [k, t] of sorted(places)) process.stdout.write(`${pct(t)}  ${k}\n`);
  process.stdout.write(`-- self time by function\n`);
  for (const [k, t] of sorted(fns)) process.stdout.write(`${pct(t)}  ${k}\n`);
}

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const windowAt = args.indexOf("--window");
const window = windowAt >= 0 ? ((args.splice(windowAt, 2)[1] ?? "").split("-").map(Number) as [number, number]) : null;
if (window && !(window.length === 2 && window.every(Number.isFinite))) throw new Error("--window <from>-<to>: two monotonic times in µs");
for (const f of files(args)) summarise(f, top, window);
