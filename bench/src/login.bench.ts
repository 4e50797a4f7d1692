/**
 * Password logins per second through the gateway at the default argon2id cost, next to the cost
 * of one argon2id verification on its own, so the share of the password hash is visible.
 * Run: pnpm --filter @burnbox/bench login   (Postgres, Redis and NATS must be up)
 */
import argon2 from "argon2";
import autocannon from "autocannon";
import { apiClient, registerUser, STRONG_PASSWORD, System } from "@burnbox/tests-e2e";
import { machine } from "./stats";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }; // identity's defaults (auth.argon2.*)

async function argonAlone(): Promise<number> {
  const hash = await argon2.hash(STRONG_PASSWORD, { type: argon2.argon2id, ...COST });
  for (let i = 0; i < 5; i++) await argon2.verify(hash, STRONG_PASSWORD);
  const n = 40;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await argon2.verify(hash, STRONG_PASSWORD);
  return (performance.now() - t0) / n;
}

async function main(): Promise<void> {
  const perVerify = await argonAlone();
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    identity: { BB_DEFAULTS_MAX_SESSIONS_PER_USER: "1000000" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
  });
  try {
    const api = apiClient(system.gatewayUrl);
    const user = await registerUser(api, "bench");
    process.stdout.write(
      `machine: ${machine()}\nargon2id m=${COST.memoryCost} KiB t=${COST.timeCost} p=${COST.parallelism}: one verify ${perVerify.toFixed(1)} ms (one core)\n`,
    );
    const opts = {
      url: `${system.gatewayUrl}/api/v1/auth/login`,
      method: "POST" as const,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: STRONG_PASSWORD }),
    };
    for (const connections of [1, 4]) {
      await autocannon({ ...opts, connections, duration: 3 });
      const r = await autocannon({ ...opts, connections, duration: SECONDS });
      const bad = r.non2xx + r.errors + r.timeouts;
      process.stdout.write(
        `logins, ${connections} connection(s): ${r.requests.average.toFixed(1)} /s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  (${r.requests.total} logins, ${bad} not 200)\n`,
      );
    }
  } finally {
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
