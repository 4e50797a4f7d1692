/**
 * The intake's per-message CPU of the authentication checks (extensions section 3), in process,
 * which CPU time keeps comparable on a busy machine: the 8 KiB DKIM-signed message of
 * `bench smtp-intake` with BENCH_AUTH=on (RSA 2048, nodemailer's signing, SPF, DKIM key and DMARC
 * p=none on a local DNS server answering from 127.0.0.1), in phases after a warm-up each:
 *   - parse-unsigned: the intake's own parse (mailparser, the intake's options) of the unsigned
 *     message BENCH_AUTH=off sends (the same text on one 7-bit line), for comparison;
 *   - parse: the same parse of the signed message;
 *   - check: the intake's `mailAuthentication(...).check` (mailauth, lookups through its TTL cache);
 *   - both: what the intake does per message (the checks running while the message is parsed).
 * Phases alternate over BENCH_ROUNDS rounds; CPU µs per message (user + system,
 * process.cpuUsage) of each, and the median. BENCH_CPU_PROF=<dir>: a CPU profile of each phase's first
 * measured round (node:inspector, the warm-up and the signing left out), for `bench profile-summary`.
 * Run: pnpm --filter @burnbox/bench auth-checks   (BENCH_MESSAGES per phase, default 2000;
 * BENCH_ROUNDS, default 3; BENCH_PHASES, default parse,check,both)
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createServer } from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { createRequire } from "node:module";
import { buildMessage, testDns } from "@burnbox/tests-e2e";
import { createLogger } from "@burnbox/service-kit/runtime";
import { mailAuthentication } from "../../services/inbox/src/adapters/mail-authentication";
import { machine, percentile } from "./stats";

// the intake's own mailparser (the bench package does not depend on it)
const { simpleParser } = createRequire(path.join(__dirname, "../../services/inbox/package.json"))("mailparser") as {
  simpleParser: (raw: Buffer, options: { skipImageLinks: boolean; skipTextToHtml: boolean; skipHtmlToText: boolean }) => Promise<unknown>;
};

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASES = (process.env.BENCH_PHASES ?? "parse-unsigned,parse,check,both").split(",");
const TEXT = "x".repeat(8 * 1024 - 300);
const DOMAIN = "sender.bench.test";
const SELECTOR = "bench";
const POOL = 50;

const PROFILE_DIR = process.env.BENCH_CPU_PROF;

/** Starts the inspector's CPU profiler; the result writes the profile to a file and stops it. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async (file) => {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function signedPool(dns: Awaited<ReturnType<typeof testDns>>): Promise<Buffer[]> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ttl = 3600;
  dns.zones.set(DOMAIN, { txt: ["v=spf1 ip4:127.0.0.1 -all"], ttl });
  dns.zones.set(`${SELECTOR}._domainkey.${DOMAIN}`, {
    txt: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`],
    ttl,
  });
  dns.zones.set(`_dmarc.${DOMAIN}`, { txt: ["v=DMARC1; p=none"], ttl });
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const pool: Buffer[] = [];
  for (let i = 0; i < POOL; i++) {
    const info = await composer.sendMail({
      from: `bench@${DOMAIN}`,
      to: "bench@inbox.bench.test",
      subject: `m${i}`,
      text: TEXT,
      dkim: { domainName: DOMAIN, keySelector: SELECTOR, privateKey: pem },
    });
    pool.push(info.message as Buffer);
  }
  return pool;
}

async function main(): Promise<void> {
  const port = await freePort();
  const dns = await testDns(port, { negativeTtl: 3600 });
  const logger = createLogger({ service: "bench", level: "warn" });
  const checks = mailAuthentication(
    {
      enabled: true,
      budgetMs: 2000,
      maxLookups: 50,
      cacheEntries: 10_000,
      dns: { servers: [`127.0.0.1:${port}`], timeout_ms: 1000 },
      mta: "mx.bench.test",
    },
    logger,
  );
  const pool = await signedPool(dns);
  const origin = { ip: "127.0.0.1", helo: "client.bench.test", sender: `bench@${DOMAIN}` };
  const parse = (raw: Buffer) => simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipHtmlToText: true });
  // the unsigned message of BENCH_AUTH=off (one long 7-bit line), beside the signed one (nodemailer's, quoted-printable)
  const plain = Buffer.from(buildMessage({ from: "bench@example.org", to: "bench@inbox.bench.test", subject: "m", text: TEXT }));
  const work: Record<string, (raw: Buffer) => Promise<unknown>> = {
    "parse-unsigned": () => parse(plain),
    parse,
    check: async (raw) => {
      const verdicts = await checks.check(raw, origin);
      if (verdicts?.dmarc.result !== "pass") throw new Error(`DMARC did not pass: ${JSON.stringify(verdicts)}`);
    },
    both: (raw) => Promise.all([checks.check(raw, origin), parse(raw)]),
  };
  process.stdout.write(`machine: ${machine()}\n${MESSAGES} signed 8 KiB messages per phase, ${ROUNDS} rounds\n`);
  const figures = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const phase of PHASES) {
      const run = work[phase];
      if (!run) throw new Error(`unknown phase ${phase}`);
      for (let i = 0; i < 300; i++) await run(pool[i % POOL]!);
      const profiling = PROFILE_DIR && round === 0 ? await startProfile() : null;
      const before = process.cpuUsage();
      for (let i = 0; i < MESSAGES; i++) await run(pool[i % POOL]!);
      const used = process.cpuUsage(before);
      if (profiling) await profiling(path.join(PROFILE_DIR!, `${phase}.cpuprofile`));
      const us = (used.user + used.system) / MESSAGES;
      figures.set(phase, [...(figures.get(phase) ?? []), us]);
      process.stdout.write(`round ${round + 1} ${phase.padEnd(14)} ${us.toFixed(0).padStart(6)} µs CPU per message\n`);
    }
  }
  for (const [phase, values] of figures) {
    process.stdout.write(`${phase.padEnd(14)} median ${percentile(values, 50).toFixed(0)} µs CPU per message\n`);
  }
  await dns.close();
}

// BENCH_ASYNC_CONTEXT=on: an AsyncLocalStorage in use, as in every service (service-kit's request
// context), which on Node 20 makes every promise go through async hooks
const run = process.env.BENCH_ASYNC_CONTEXT === "on" ? () => new AsyncLocalStorage().run({}, main) : main;
run().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
