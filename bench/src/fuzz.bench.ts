/**
 * The long fuzzing campaign (issue: hardening): at least 20,000 seeded malformed requests over
 * every operation the gateway's document lists, on a system of its own. Prints the figures
 * recorded in docs/reliability.md; exits non-zero on any 5xx, any error outside the envelope, or
 * any refused request that changed state. The short run (2,000) is part of `npm test`.
 * Run: pnpm build && pnpm --filter @burnbox/bench fuzz   (BENCH_FUZZ_REQUESTS, BENCH_FUZZ_SEED)
 */
import { System, describeReport, fuzzCampaign, registerOperator } from "@burnbox/tests-e2e";
import { machine } from "./stats";

const TOTAL = Number(process.env.BENCH_FUZZ_REQUESTS ?? 20_000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 7);
const ADMIN = "fuzz-admin@example.test";

async function main(): Promise<void> {
  const system = await System.start({
    identity: { BB_AUTH_ARGON2_MEMORY_KIB: "8192" },
    "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1" },
  });
  try {
    process.stdout.write(`${machine()}\nseed ${SEED}, ${TOTAL} requests\n`);
    const report = await fuzzCampaign({
      gatewayUrl: system.gatewayUrl,
      namespace: system.namespace,
      seed: SEED,
      total: TOTAL,
      // the first system admin, by first-run setup
      admin: () => registerOperator(system, ADMIN),
    });
    process.stdout.write(`${describeReport(report)}\n`);
    for (const f of report.findings.slice(0, 20)) {
      process.stdout.write(
        `  ${f.status} ${f.problem}: ${f.case.method} ${f.case.url.slice(0, 100)} (${f.case.mutation}, ${f.credential})\n`,
      );
    }
    if (report.findings.length > 0) process.exitCode = 1;
  } finally {
    await system.stop();
  }
}

void main();
