/**
 * Authenticated requests per second for one read (GET /inboxes/{id}, which also asks tenancy for
 * the RBAC decision) three ways, in one run on one system:
 *   1. through the gateway with a `bb_` API key (hash lookup cached in Redis, usage counted);
 *   2. through the gateway with a JWT access token (signature + revoked-session check);
 *   3. straight to the inbox service with a signed internal context (no gateway at all);
 * and a bare node:http server answering the same body (the protocol's ceiling on this machine).
 * Each at full speed over 10 connections (autocannon): the three system paths BENCH_REPEATS times
 * (default 3) in turn, so a drift of the machine's speed during the run shows in each round's ratio
 * rather than in the figure (the median round's ratio); then each at a fixed 1,000 req/s as an open
 * loop (see `fixedRate`), also in rounds (the median round's p99). Prints CPU per request of the services and of the rest of the machine.
 * Run: pnpm --filter @burnbox/bench gateway-auth   (Postgres, Redis and NATS must be up)
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import autocannon from "autocannon";
import { TEST_INTERNAL_SECRET, internalHeaders } from "@burnbox/test-kit";
import { apiClient, createInbox, System, teamWithDomain } from "@burnbox/tests-e2e";
import { cpuPerUnit, machine, othersPerUnit, percentile, spawnBare } from "./stats";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

let pids: Record<string, number | undefined> = {};

const FIXED_RATE = Number(process.env.BENCH_FIXED_RATE ?? 1000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** BENCH_PATHS=key,direct: the system paths to run (default all three); BENCH_FIXED_RATE=0 skips the fixed-rate rounds. */
const PATHS = new Set((process.env.BENCH_PATHS ?? "key,jwt,direct").split(","));

/** A bare node:http server in a child process answering every request with `body` as JSON. */
async function bareHttp(body: string): Promise<{ url: string; stop(): void }> {
  const code = `
    const body = Buffer.from(process.env.BODY);
    const server = require("node:http").createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
      res.end(body);
    });
    server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;
  const { ports, stop } = await spawnBare(code, { BODY: body });
  return { url: `http://127.0.0.1:${ports[0]}/`, stop };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function run(label: string, url: string, headers: () => Record<string, string>): Promise<number> {
  const opts = { url, connections: CONNECTIONS, headers: headers() };
  await autocannon({ ...opts, duration: 3 }); // warm-up
  const cpu = cpuPerUnit(pids);
  const others = othersPerUnit();
  const from = process.hrtime.bigint() / 1000n;
  const r = await autocannon({ ...opts, headers: headers(), duration: SECONDS });
  // the phase on the monotonic clock in µs, as V8's CPU profiles count (profile-summary --window)
  if (process.env.BB_BENCH_PROFILE) process.stdout.write(`${"".padEnd(34)} window ${from}-${process.hrtime.bigint() / 1000n}\n`);
  const bad = r.non2xx + r.errors + r.timeouts;
  process.stdout.write(
    `${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  (${r.requests.total} requests, ${bad} not 2xx)\n`,
  );
  process.stdout.write(`${"".padEnd(34)} CPU ms per request: ${cpu(r.requests.total)}\n`);
  process.stdout.write(`${"".padEnd(34)} the rest of the machine: ${others(r.requests.total)}\n`);
  if (bad > 0) throw new Error(`${label}: ${bad} requests failed`);
  return r.requests.average;
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate, sent then (on a
 * keep-alive pool of up to 64 connections), and its latency counts from when it was due, so a
 * slow answer delays nobody else's clock and queueing anywhere shows in the figures. (autocannon's
 * `overallRate` sends each connection's share at the top of every second, in a burst, and then
 * corrects for coordinated omission as if requests were due every millisecond: its tail is the
 * burst's, not the service's.)
 */
async function fixedRate(label: string, url: string, headers: () => Record<string, string>, rate: number): Promise<number> {
  const once = async (seconds: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const total = rate * seconds;
    const latencies: number[] = [];
    let failed = 0;
    const h = headers();
    const start = performance.now() + 20;
    await new Promise<void>((done) => {
      let sent = 0;
      let finished = 0;
      const finish = () => {
        if (++finished === total) done();
      };
      const tick = () => {
        const now = performance.now();
        while (sent < total && start + (sent * 1000) / rate <= now) {
          const due = start + (sent * 1000) / rate;
          sent += 1;
          const req = http.request(url, { agent, headers: h }, (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode !== 200) failed += 1;
              latencies.push(performance.now() - due);
              finish();
            });
          });
          req.on("error", () => {
            failed += 1;
            finish();
          });
          req.end();
        }
        if (sent < total) setTimeout(tick, 1);
      };
      tick();
    });
    agent.destroy();
    return { latencies, failed, seconds: (performance.now() - start) / 1000 };
  };
  await once(3); // warm-up
  const cpu = cpuPerUnit(pids);
  const others = othersPerUnit();
  const r = await once(SECONDS);
  const n = r.latencies.length;
  process.stdout.write(
    `${label.padEnd(34)} ${(n / r.seconds).toFixed(0).padStart(6)} req/s  p50 ${percentile(r.latencies, 50).toFixed(1)} ms  p99 ${percentile(r.latencies, 99).toFixed(1)} ms  max ${Math.max(...r.latencies).toFixed(1)} ms  (${n} requests, ${r.failed} not 2xx)\n`,
  );
  process.stdout.write(`${"".padEnd(34)} CPU ms per request: ${cpu(n)}\n`);
  process.stdout.write(`${"".padEnd(34)} the rest of the machine: ${others(n)}\n`);
  if (r.failed > 0) throw new Error(`${label}: ${r.failed} requests failed`);
  return percentile(r.latencies, 99);
}

async function main(): Promise<void> {
  // BENCH_RATE_LIMITS=raised: limits on (each request counted in its Redis window) but far above
  // the load; by default off (the window is only read, for the headers)
  const limits: Record<string, string> =
    process.env.BENCH_RATE_LIMITS === "raised"
      ? { BB_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000000", BB_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "100000000" }
      : { BB_RATE_LIMIT_ENABLED: "false" };
  process.stdout.write(`rate limits: ${process.env.BENCH_RATE_LIMITS === "raised" ? "on, raised to 100,000,000 a minute" : "off"}\n`);
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn", ...(process.env.BENCH_NODE_ARGS ? { BB_BENCH_NODE_ARGS: process.env.BENCH_NODE_ARGS } : {}) },
    "api-gateway": limits,
  });
  try {
    pids = Object.fromEntries((["api-gateway", "identity", "tenancy", "inbox"] as const).map((p) => [p, system.pid(p)]));
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "bench");
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "bench", scopes: ["team.inboxes.view"] },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status}`);
    const me = await api<{ id: string; email: string }>("GET", "/auth/me", { token: world.owner.token });
    const path = `/api/v1/inboxes/${inbox.id}`;
    process.stdout.write(`machine: ${machine()}\n${CONNECTIONS} connections, ${SECONDS} s each after a 3 s warm-up\n`);
    const actor = { user_id: me.body.id, email: me.body.email, is_system_admin: false, session_id: randomUUID(), api_key: null };
    const viaGateway = { url: `${system.gatewayUrl}${path}`, key: () => ({ authorization: `Bearer ${key.body.raw_key}` }) };
    const jwtHeaders = () => ({ authorization: `Bearer ${world.owner.token}` });
    const directUrl = `http://127.0.0.1:${system.ports.inbox}${path}`;
    // the internal context lives 30 s: a fresh one for each phase
    const directHeaders = () => internalHeaders(actor, TEST_INTERNAL_SECRET);
    const sample = await fetch(directUrl, { headers: directHeaders() });
    const bare = await bareHttp(await sample.text());
    try {
      const rounds: Array<{ key: number; jwt: number; direct: number }> = [];
      for (let round = 1; round <= REPEATS; round++) {
        process.stdout.write(`round ${round} of ${REPEATS}\n`);
        const viaKey = PATHS.has("key") ? await run("gateway + API key", viaGateway.url, viaGateway.key) : NaN;
        const viaJwt = PATHS.has("jwt") ? await run("gateway + JWT", viaGateway.url, jwtHeaders) : NaN;
        const direct = PATHS.has("direct") ? await run("inbox service directly", directUrl, directHeaders) : NaN;
        rounds.push({ key: viaKey, jwt: viaJwt, direct });
      }
      const bareRate = await run("bare node:http, same body", bare.url, () => ({}));
      const median = (xs: number[]) => percentile(xs, 50);
      const toBare = (k: "key" | "jwt" | "direct") =>
        `${rounds.map((r) => pct(r[k] / bareRate)).join(", ")} (median ${pct(median(rounds.map((r) => r[k])) / bareRate)})`;
      process.stdout.write(
        `ratio to the direct baseline by round: API key ${rounds.map((r) => pct(r.key / r.direct)).join(", ")}; JWT ${rounds.map((r) => pct(r.jwt / r.direct)).join(", ")}\n` +
          `median: API key ${pct(median(rounds.map((r) => r.key / r.direct)))}, JWT ${pct(median(rounds.map((r) => r.jwt / r.direct)))} (target >= 60%)\n` +
          `ratio to bare node:http by round: API key ${toBare("key")}; JWT ${toBare("jwt")}; inbox directly ${toBare("direct")}\n`,
      );
      if (FIXED_RATE <= 0) return;
      process.stdout.write(`\nat a fixed ${FIXED_RATE} req/s (target: served, p99 <= 50 ms)\n`);
      await fixedRate("bare node:http, fixed rate", bare.url, () => ({}), FIXED_RATE);
      // one stall of the machine (or a collection) during a 10 s run is its p99: the three in rounds too
      const p99s: Array<{ key: number; jwt: number; direct: number }> = [];
      for (let round = 1; round <= REPEATS; round++) {
        process.stdout.write(`round ${round} of ${REPEATS}\n`);
        p99s.push({
          key: await fixedRate("gateway + API key, fixed rate", viaGateway.url, viaGateway.key, FIXED_RATE),
          jwt: await fixedRate("gateway + JWT, fixed rate", viaGateway.url, jwtHeaders, FIXED_RATE),
          direct: await fixedRate("inbox directly, fixed rate", directUrl, directHeaders, FIXED_RATE),
        });
      }
      const byRound = (k: "key" | "jwt" | "direct") =>
        `${p99s.map((r) => r[k].toFixed(1)).join(", ")} (median ${median(p99s.map((r) => r[k])).toFixed(1)})`;
      process.stdout.write(
        `p99 by round at ${FIXED_RATE} req/s, ms: API key ${byRound("key")}; JWT ${byRound("jwt")}; inbox directly ${byRound("direct")}\n`,
      );
    } finally {
      bare.stop();
    }
  } finally {
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
