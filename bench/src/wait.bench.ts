/**
 * GET /inboxes/:id/emails/wait, in one run:
 *   1. the floor (bare baseline): a wait that answers at once (`timeout=0`, the inbox's mail read
 *      once), through the gateway: what any answer costs before waiting comes into it;
 *   2. wake latency: BENCH_MESSAGES (default 300) mails at BENCH_RATE (default 100) msg/s over
 *      SMTP, each to an inbox with a wait held for it; timed from the SMTP 250 to the wait's answer,
 *      with the rate the mail was accepted at, each process's CPU per message, this load
 *      generator's own event-loop delay and the machine's load average (it is shared: a saturated
 *      machine queues everything, so read the latencies beside the load);
 *   3. BENCH_WAITS (default 1,000) waits held on the one inbox process (100 per user, the cap):
 *      its resident memory before and after, and its CPU over BENCH_IDLE_MS (default 5 s) while
 *      nothing arrives (BENCH_WAITS=0: left out).
 * Run: node deploy/local/build.mjs && pnpm --filter @burnbox/bench wait   (Postgres, Redis and NATS
 * must be up; BENCH_NODE_ARGS: node flags for every service process; BB_BENCH_PROFILE=inbox,api-gateway
 * for CPU profiles, see docs/performance.md)
 */
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createRedis } from "@burnbox/service-kit/data";
import { testInfra } from "@burnbox/test-kit";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain } from "@burnbox/tests-e2e";
import { cpuMs, cpuPerUnit, machine, othersPerUnit, summary } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const WAITS = Number(process.env.BENCH_WAITS ?? 1000);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5000);
const INBOXES = 20;

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  process.stdout.write(`machine: ${machine()} (shared with other work)\n`);
  const loadavg = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  process.stdout.write(`load average at start: ${loadavg()}\n`);
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn", ...(process.env.BENCH_NODE_ARGS ? { BB_BENCH_NODE_ARGS: process.env.BENCH_NODE_ARGS } : {}) },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
    // the load generator is one address
    "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "100000000", BB_SMTP_MAX_CONNECTIONS_PER_IP: "10000" },
  });
  try {
    const api = apiClient(system.gatewayUrl);
    // several users, so a backlog on a loaded machine stays under the 100 waits one user may hold
    const senders = await Promise.all(Array.from({ length: 5 }, () => teamWithDomain(api)));
    // one after another: twenty transactions at once outwait the pool's start timeout on a busy machine
    const inboxes: Array<Awaited<ReturnType<typeof createInbox>> & { token: string }> = [];
    for (let i = 0; i < INBOXES; i++) {
      const w = senders[i % senders.length]!;
      inboxes.push({ ...(await createInbox(api, w.owner.token, w.assignmentId, `w${i}`)), token: w.owner.token });
    }

    // 1. the floor
    const procs = ["api-gateway", "inbox", "inbox-smtp", "tenancy", "identity"] as const;
    const floorCpu = cpuPerUnit(Object.fromEntries(procs.map((p) => [p, system.pid(p)])));
    const floor: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      const inbox = inboxes[i % INBOXES]!;
      const r = await api("GET", `/inboxes/${inbox.id}/emails/wait?subject=none&timeout=0`, { token: inbox.token });
      if (r.status !== 200) throw new Error(`floor: ${r.status}`);
      if (i >= 20) floor.push(performance.now() - t0);
    }
    process.stdout.write(`${summary("bare: an immediate answer (timeout=0) through the gateway", floor)}\n`);
    process.stdout.write(`  CPU ms per answer: ${floorCpu(200)}\n`);

    // 2. wake latency at RATE msg/s
    const wake: number[] = [];
    const sentTo250: number[] = [];
    let lastAccepted = 0;
    const pending: Promise<void>[] = [];
    const cpu = cpuPerUnit(Object.fromEntries(procs.map((p) => [p, system.pid(p)])));
    const others = othersPerUnit();
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const started = performance.now();
    for (let k = 0; k < MESSAGES; k++) {
      const due = started + (k * 1000) / RATE;
      const now = performance.now();
      if (due > now) await sleep(due - now);
      const inbox = inboxes[k % INBOXES]!;
      const subject = `m${k}-${randomBytes(3).toString("hex")}`;
      const sentAt = performance.now();
      const answered = api<{ timed_out: boolean }>("GET", `/inboxes/${inbox.id}/emails/wait?subject=${subject}&timeout=30s`, {
        token: inbox.token,
      }).then((r) => ({ r, at: performance.now() }));
      const run = (async () => {
        // the wait is on its way first; the mail follows 50 ms later
        await sleep(50);
        // a session per message, as most senders do
        const s = await SmtpSession.open(system.ports.smtp);
        await s.command("MAIL FROM:<bench@acme.example>");
        await s.command(`RCPT TO:<${inbox.full_address}>`);
        const done = await s.data(buildMessage({ from: "bench@acme.example", to: inbox.full_address, subject, text: "hi" }));
        const accepted = performance.now();
        lastAccepted = Math.max(lastAccepted, accepted);
        if (done.code !== 250) throw new Error(`SMTP ${done.code}`);
        void s.quit();
        const { r, at } = await answered;
        if (r.status !== 200 || r.body.timed_out) throw new Error(`wait: ${r.status}`);
        if (k >= 20) wake.push(Math.max(0, at - accepted));
        if (k >= 20) sentTo250.push(accepted - sentAt);
      })();
      pending.push(run);
    }
    await Promise.all(pending);
    const took = (performance.now() - started) / 1000;
    lag.disable();
    const sent = MESSAGES / ((lastAccepted - started) / 1000);
    process.stdout.write(
      `${summary(`wake: SMTP 250 -> the wait's answer, offered ${RATE} msg/s, accepted ${sent.toFixed(0)} msg/s, all answered in ${took.toFixed(1)} s`, wake)}\n`,
    );
    process.stdout.write(`${summary("  wait sent -> SMTP 250", sentTo250)}\n`);
    process.stdout.write(
      `  load generator event-loop delay: p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms\n`,
    );
    process.stdout.write(`  CPU ms per message: ${cpu(MESSAGES)}; ${others(MESSAGES)}\n`);
    process.stdout.write(`  load average after the wake phase: ${loadavg()}\n`);

    // 3. WAITS held on the one inbox process (BENCH_WAITS=0: left out)
    if (WAITS === 0) return;
    const pid = system.pid("inbox");
    const before = rssMb(pid);
    const users = Math.ceil(WAITS / 100);
    const worlds = await Promise.all(Array.from({ length: users }, () => teamWithDomain(api)));
    const held: Promise<unknown>[] = [];
    const targets = await Promise.all(worlds.map((w, i) => createInbox(api, w.owner.token, w.assignmentId, `held${i}`)));
    for (let i = 0; i < WAITS; i++) {
      const w = worlds[i % users]!;
      held.push(api("GET", `/inboxes/${targets[i % users]!.id}/emails/wait?subject=never&timeout=110s`, { token: w.owner.token }));
    }
    // every wait is held once its slot is taken (after its first read): counted in Redis, where the
    // slots are; then a settle second
    const redis = createRedis(testInfra.redisUrl);
    if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
    const heldNow = async () => {
      const keys = await redis.keys(`${system.namespace}:waits:*`);
      const counts = await Promise.all(keys.map((k) => redis.zcard(k)));
      return counts.reduce((a, b) => a + b, 0);
    };
    const holdDeadline = Date.now() + 30_000; // well within the waits' 110 s
    let heldCount = await heldNow();
    while (heldCount < WAITS && Date.now() < holdDeadline) {
      await sleep(250);
      heldCount = await heldNow();
    }
    redis.disconnect();
    await sleep(1000);
    const cpu0 = cpuMs(pid);
    await sleep(IDLE_MS);
    const idleCpu = cpuMs(pid) - cpu0;
    const after = rssMb(pid);
    process.stdout.write(
      `${heldCount} of ${WAITS} waits held on one inbox process: RSS ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB (+${(after - before).toFixed(1)} MB); ` +
        `CPU while idle ${((idleCpu / IDLE_MS) * 100).toFixed(2)}% of a core (${idleCpu.toFixed(0)} ms over ${IDLE_MS} ms)\n`,
    );
    // end them: delete the inboxes
    await Promise.all(worlds.map((w, i) => api("DELETE", `/inboxes/${targets[i]!.id}`, { token: w.owner.token })));
    await Promise.allSettled(held);
  } finally {
    await system.stop();
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
