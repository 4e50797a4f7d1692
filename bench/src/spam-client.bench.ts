/**
 * The spam scorer's client alone (extensions section 9): what one score costs the process that
 * asks it, and rspamd, with nothing else of the intake around it. A private rspamd (Debian's, as
 * `npm start` runs it) scores the same 8 KiB message over and over, 10 at a time as the intake's
 * 10 connections of `bench smtp-intake` ask them; rounds of BENCH_SPAM_MESSAGES (default 1000)
 * scores, BENCH_SPAM_ROUNDS (default 6) of them per client. Prints per round and as the median of
 * the rounds: scores per second, this process's CPU milliseconds per score (process.cpuUsage:
 * the client's whole cost, its garbage collection included) and rspamd's (its main process and
 * workers, from /proc).
 * BENCH_SPAM_BEFORE: a second module exporting `rspamdScorer` (say an earlier version of
 * services/inbox/src/adapters/rspamd.ts copied beside it), measured in rounds interleaved with
 * the current one's, so that both see the same load of a shared machine.
 * Run: pnpm --filter @burnbox/bench spam-client
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@burnbox/service-kit/runtime";
import { buildMessage, freePorts, rspamdInstalled, startRspamd, stopRspamd } from "@burnbox/tests-e2e";
import { rspamdScorer } from "../../services/inbox/src/adapters/rspamd";
import { exitAfterFailure, stopOnExit } from "./exit-cleanup";
import { withChildren } from "./pipeline-profile";
import { cpuMs, machine, percentile } from "./stats";

const MESSAGES = Number(process.env.BENCH_SPAM_MESSAGES ?? 1_000);
const ROUNDS = Number(process.env.BENCH_SPAM_ROUNDS ?? 6);
const CONCURRENCY = 10;
const TEXT = "x".repeat(8 * 1024 - 300);

type Scorer = ReturnType<typeof rspamdScorer>;
interface Round {
  perSecond: number;
  clientMs: number;
  rspamdMs: number;
  unavailable: number;
}

const raw = Buffer.from(buildMessage({ from: "bench@example.org", to: "bench@bench.test", subject: "spam client", text: TEXT }));
// from 127.0.0.1, as the intake's load in `bench smtp-intake` comes (a remote address makes rspamd
// ask its DNS for the sender's PTR record: a wait, not CPU, of ~100 ms on the local closed resolver)
const origin = { ip: "127.0.0.1", helo: "mx.example.org", sender: "bench@example.org", recipients: ["bench@bench.test"] };

/** `MESSAGES` scores, `CONCURRENCY` at a time; this process's and rspamd's CPU per score. */
async function round(scorer: Scorer, rspamdPids: () => number[]): Promise<Round> {
  const rspamdCpu = () => rspamdPids().reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0);
  const rspamdBefore = rspamdCpu();
  const self = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  let unavailable = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < MESSAGES) if ((await scorer.score(raw, origin)).status !== "scored") unavailable++;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(self);
  return {
    perSecond: MESSAGES / seconds,
    clientMs: (used.user + used.system) / 1000 / MESSAGES,
    rspamdMs: (rspamdCpu() - rspamdBefore) / MESSAGES,
    unavailable,
  };
}

const line = (label: string, r: Round) =>
  `${label.padEnd(22)} ${r.perSecond.toFixed(0).padStart(5)} scores/s  client ${r.clientMs.toFixed(3)} CPU ms/score  rspamd ${r.rspamdMs.toFixed(3)} CPU ms/score${r.unavailable ? `  ${r.unavailable} unavailable` : ""}\n`;

function median(rounds: Round[]): Round {
  const mid = (of: (r: Round) => number) => percentile(rounds.map(of), 50);
  return {
    perSecond: mid((r) => r.perSecond),
    clientMs: mid((r) => r.clientMs),
    rspamdMs: mid((r) => r.rspamdMs),
    unavailable: rounds.reduce((sum, r) => sum + r.unavailable, 0),
  };
}

async function main(): Promise<void> {
  if (!rspamdInstalled()) throw new Error("bench spam-client needs rspamd (Debian: apt-get install rspamd)");
  process.stdout.write(
    `machine: ${machine()}\n${ROUNDS} rounds of ${MESSAGES} scores of one ${raw.length}-byte message, ${CONCURRENCY} at a time, per client\n`,
  );
  const [port] = await freePorts(1);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-rspamd-"));
  // rspamd is a detached process of its own: stopped however this run ends
  const stop = stopOnExit("rspamd", async () => {
    await stopRspamd(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    const url = await startRspamd(port!, dir);
    const pid = Number(readFileSync(path.join(dir, "rspamd.pid"), "utf8"));
    const rspamdPids = withChildren(() => pid);
    const logger = createLogger({ service: "bench", level: "warn" });
    const settings = { url, timeoutMs: 5_000 };
    const clients: Array<[string, Scorer]> = [["current", rspamdScorer(settings, logger)]];
    if (process.env.BENCH_SPAM_BEFORE) {
      const before = (await import(path.resolve(process.env.BENCH_SPAM_BEFORE))) as { rspamdScorer: typeof rspamdScorer };
      clients.unshift(["before", before.rspamdScorer(settings, logger)]);
    }
    // warm-up: rspamd's first scores compile its maps, the JIT compiles both clients
    for (const [, scorer] of clients) await round(scorer, rspamdPids);
    const results = new Map<string, Round[]>(clients.map(([label]) => [label, []]));
    for (let i = 0; i < ROUNDS; i++) {
      for (const [label, scorer] of clients) {
        const r = await round(scorer, rspamdPids);
        results.get(label)!.push(r);
        process.stdout.write(line(`round ${i + 1} ${label}`, r));
      }
    }
    process.stdout.write("median of the rounds:\n");
    for (const [label, rounds] of results) process.stdout.write(line(label, median(rounds)));
  } finally {
    await stop();
  }
}

main().catch(exitAfterFailure);
