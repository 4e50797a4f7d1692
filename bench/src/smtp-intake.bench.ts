/**
 * SMTP intake throughput, 8 KiB messages over 10 connections, three ways in one run and under the
 * same load:
 *   1. a bare smtp-server sink on the same machine that reads each message and answers 250;
 *   2. MailDev (the npm package, in its own process, its in-memory mode): the self-hosted peer;
 *   3. the whole system: every message parsed, its file and row stored and its email.received
 *      event published and consumed by every service (checked at the end: the inbox counts every
 *      message, the stream holds every event, every notification is stored).
 * Prints each one's messages per second and its ratio to the sink, and for BurnBox where each
 * accepted message's cost goes: the CPU milliseconds and context switches of every process of the
 * pipeline (each service, PostgreSQL, NATS, Redis: the benchmark's own servers, so that nothing
 * else on the machine is counted) and their sum; PostgreSQL's statements, commits, rows and WAL
 * per message; what each message's SMTP transcript takes in the database.
 * Run: pnpm --filter @burnbox/bench smtp-intake   (BENCH_MESSAGES, default 5000, after a 500-message
 * warm-up; BENCH_SERVERS=shared: the machine's PostgreSQL, Redis and NATS instead of private ones
 * (then their CPU includes whatever else uses them, and no statement profile);
 * BENCH_INBOX_SQL: statements run in the inbox database before the load, to try a schema change;
 * BENCH_STORAGE: the intake's storage folder, a tmpfs one to see what the disk costs;
 * BENCH_NODE_ARGS: node flags for every service process, --perf-basic-prof for `perf` say;
 * BENCH_AUTH=on: the intake's authentication checks on (extensions section 3), every message
 * DKIM-signed by a sender domain whose SPF, DKIM key and DMARC record live on a local DNS server
 * (the system's `dns.servers`); off, the default: the checks turned off, as before them;
 * BENCH_AUTH=off-signed: the checks off, the same DKIM-signed messages as `on`, so that the pair
 * off-signed/on differs by the checks alone and not also by the messages' shape;
 * BENCH_SPAM=compare: after the run above (scoring off), a private rspamd is started, the intake
 * restarted with `spam.rspamd_url` set (extensions section 9), and the same load measured again:
 * both rates, their ratio, and the cost per message with rspamd's own CPU in the sum)
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { Client } from "pg";
import { subjects } from "@burnbox/contracts";
import { connectNats, jetstreamManager } from "@burnbox/service-kit/messaging";
import { testDatabaseUrl, testInfra, waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain, testDns } from "@burnbox/tests-e2e";
import { connect as tcpConnect } from "node:net";
import { freePorts, rspamdInstalled, startRspamd, stopRspamd } from "@burnbox/tests-e2e";
import { exitAfterFailure, stopOnExit } from "./exit-cleanup";
import { costTable, onePid, pipelineCost, statementProfile, summedCpu, withChildren, type PidSource } from "./pipeline-profile";
import { PrivatePostgres, natsReady, natsServer, redisServer, type Owned } from "./private-infra";
import { machine, percentile, pidsOf } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5_000);
const PRIVATE = (process.env.BENCH_SERVERS ?? "private") !== "shared";
const CONNECTIONS = 10;
const TEXT = "x".repeat(8 * 1024 - 300); // with the headers, about 8 KiB on the wire
const AUTH = (process.env.BENCH_AUTH ?? "off") === "on";
/** The DKIM-signed messages of `on`, sent with the checks on or (off-signed) off. */
const SIGNED = AUTH || process.env.BENCH_AUTH === "off-signed";
/** The sender domain of BENCH_AUTH=on, its DKIM selector, and how many signed messages are made beforehand and sent in turn. */
const SENDER_DOMAIN = "sender.bench.test";
const SELECTOR = "bench";
const SIGNED_POOL = 50;
/** BENCH_SPAM=compare: the same load again with the spam score asked of a private rspamd. */
const SPAM_COMPARE = process.env.BENCH_SPAM === "compare";

/** The messages a run sends: built per message, or (BENCH_AUTH=on) from a pool signed before the clock starts. */
type Messages = (i: number, to: string) => string;
const plainMessages: Messages = (i, to) => buildMessage({ from: "bench@example.org", to, subject: `m${i}`, text: TEXT });

/** BENCH_AUTH=on: SPF allowing 127.0.0.1, a DKIM key and DMARC p=none on the local DNS; messages signed with the key. */
async function signedMessages(dns: Awaited<ReturnType<typeof testDns>>, to: string): Promise<Messages> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ttl = 3600;
  dns.zones.set(SENDER_DOMAIN, { txt: ["v=spf1 ip4:127.0.0.1 -all"], ttl });
  dns.zones.set(`${SELECTOR}._domainkey.${SENDER_DOMAIN}`, {
    txt: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`],
    ttl,
  });
  dns.zones.set(`_dmarc.${SENDER_DOMAIN}`, { txt: ["v=DMARC1; p=none"], ttl });
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const pool: string[] = [];
  for (let i = 0; i < SIGNED_POOL; i++) {
    const info = await composer.sendMail({
      from: `bench@${SENDER_DOMAIN}`,
      to,
      subject: `m${i}`,
      text: TEXT,
      dkim: {
        domainName: SENDER_DOMAIN,
        keySelector: SELECTOR,
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      },
    });
    pool.push((info.message as Buffer).toString("utf8"));
  }
  return (i) => pool[i % pool.length]!;
}

/** Sends `count` messages to `to` over `CONNECTIONS` sessions as fast as they are accepted. */
async function load(
  port: number,
  to: string,
  count: number,
  messages: Messages = plainMessages,
): Promise<{ perSecond: number; p99: number; max: number }> {
  const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => SmtpSession.open(port)));
  const latencies: number[] = [];
  let next = 0;
  const started = Date.now();
  await Promise.all(
    sessions.map(async (s) => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await s.command(SIGNED ? `MAIL FROM:<bench@${SENDER_DOMAIN}>` : "MAIL FROM:<bench@example.org>");
        await s.command(`RCPT TO:<${to}>`);
        const reply = await s.data(messages(i, to));
        if (reply.code !== 250) throw new Error(`message ${i}: ${reply.code} ${reply.text}`);
        latencies.push(performance.now() - t0);
      }
      await s.quit();
    }),
  );
  return { perSecond: count / ((Date.now() - started) / 1000), p99: percentile(latencies, 99), max: Math.max(...latencies) };
}

async function bareSink(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Resolves once something accepts TCP connections on `port` (a server this script spawned). */
async function listening(port: number, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * MailDev 3 in a process of its own, as its users run it (`maildev`, no mail directory: the
 * in-memory store), its web interface on a port of its own. Resolves with its SMTP port and pid,
 * how many mails it holds (its REST API) and a way to stop it.
 */
async function mailDev(): Promise<{ port: number; pid: number; count(): Promise<number>; stop(): void }> {
  const [smtp, web] = (await freePorts(2)) as [number, number];
  // the package exports only its ESM entry: its command is started from where pnpm put it
  const bin = path.join(__dirname, "..", "node_modules", "maildev", "dist", "bin", "maildev.js");
  const child = spawn(
    process.execPath,
    [bin, "--smtp", String(smtp), "--web", String(web), "--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--silent"],
    {
      stdio: "ignore",
    },
  );
  await listening(smtp, "MailDev");
  await listening(web, "MailDev's web interface");
  return {
    port: smtp,
    pid: child.pid as number,
    async count() {
      const res = await fetch(`http://127.0.0.1:${web}/api/email`);
      return ((await res.json()) as unknown[]).length;
    },
    stop: () => child.kill("SIGKILL"),
  };
}

/** The benchmark's own PostgreSQL (durable, as the shared server runs, with pg_stat_statements), NATS and Redis. */
interface PrivateServers {
  pg: PrivatePostgres;
  nats: Owned;
  redis: Owned;
  natsPid: () => number | undefined;
  redisPid: () => number | undefined;
  stop(): void;
}

async function privateServers(): Promise<PrivateServers> {
  const [pgPort, proxyPort, natsPort, natsMonitor, redisPort] = (await freePorts(5)) as [number, number, number, number, number];
  const pg = await PrivatePostgres.start(pgPort, proxyPort, {
    durable: true,
    options: "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all",
  });
  const nats = natsServer(natsPort, natsMonitor);
  nats.start();
  const redis = redisServer(redisPort);
  redis.start();
  await natsReady(natsMonitor);
  await listening(redisPort, "Redis");
  // straight to the cluster: the proxy would put its own CPU into the load generator's
  testInfra.postgresUrl = pg.directUrl();
  testInfra.natsUrl = `nats://127.0.0.1:${natsPort}`;
  testInfra.redisUrl = `redis://127.0.0.1:${redisPort}`;
  const byPort = (comm: string, port: number) => () =>
    pidsOf(comm).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(String(port));
      } catch {
        return false;
      }
    });
  return {
    pg,
    nats,
    redis,
    natsPid: byPort("nats-server", natsPort),
    redisPid: byPort("redis-server", redisPort),
    stop() {
      nats.stop();
      redis.stop();
      pg.stop();
    },
  };
}

async function main(): Promise<void> {
  process.stdout.write(
    `machine: ${machine()}\n${MESSAGES} messages of 8 KiB over ${CONNECTIONS} connections after a warm-up of ${Math.min(500, MESSAGES)}; authentication checks ${AUTH ? "on (DKIM-signed mail, SPF, DMARC on a local DNS)" : SIGNED ? "off (the same DKIM-signed mail)" : "off"}; ${PRIVATE ? "the benchmark's own PostgreSQL (durable), NATS and Redis" : "the machine's PostgreSQL, NATS and Redis"}\n`,
  );
  const sink = await bareSink();
  const warm = Math.min(500, MESSAGES);
  await load(sink.port, "bench@sink.test", warm);
  const bare = await load(sink.port, "bench@sink.test", MESSAGES);
  await sink.close();
  const rate = (label: string, r: { perSecond: number; p99: number }) =>
    `${label.padEnd(30)} ${r.perSecond.toFixed(0).padStart(6)} msg/s  p99 ${r.p99.toFixed(1).padStart(6)} ms  ${((r.perSecond / bare.perSecond) * 100).toFixed(1).padStart(5)}% of the sink\n`;
  process.stdout.write(rate("bare smtp-server sink", bare));

  const peer = await mailDev();
  const stopPeer = stopOnExit("MailDev", () => peer.stop());
  let peerResult: { perSecond: number; p99: number };
  try {
    await load(peer.port, "bench@maildev.test", warm);
    const peerCost = pipelineCost({ maildev: onePid(() => peer.pid) });
    peerResult = await load(peer.port, "bench@maildev.test", MESSAGES);
    const [cost] = peerCost(MESSAGES);
    const held = await peer.count();
    process.stdout.write(rate("MailDev 3 (in memory)", peerResult));
    process.stdout.write(
      `  MailDev: ${cost!.cpuMs.toFixed(2)} CPU ms and ${cost!.switches.toFixed(1)} context switches per message; holds ${held} of ${warm + MESSAGES}\n`,
    );
  } finally {
    stopPeer();
  }

  const servers = PRIVATE ? await privateServers() : null;
  const stopServers = stopOnExit("PostgreSQL, NATS and Redis", () => servers?.stop());
  // the load comes from one address over few connections: lift the intake's per-IP and per-connection limits
  const intakeEnv = {
    ...(process.env.BENCH_STORAGE ? { BB_STORAGE_LOCAL_PATH: process.env.BENCH_STORAGE } : {}),
    BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "100000000",
    BB_SMTP_MAX_MESSAGES_PER_CONNECTION: "100000000",
    BB_AUTHENTICATION_ENABLED: AUTH ? "true" : "false",
  };
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn", ...(process.env.BENCH_NODE_ARGS ? { BB_BENCH_NODE_ARGS: process.env.BENCH_NODE_ARGS } : {}) },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
    "inbox-smtp": intakeEnv,
  });
  const stopSystem = stopOnExit("the services", () => system.stop());
  const nc = await connectNats(testInfra.natsUrl, "bench");
  // negative answers kept an hour, as a real zone's SOA would allow (the DMARC walk asks names that do not exist)
  const dns = SIGNED ? await testDns(system.ports.dns, { negativeTtl: 3600 }) : null;
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "bench");
    const messages = dns ? await signedMessages(dns, inbox.full_address) : plainMessages;
    if (process.env.BENCH_INBOX_SQL) {
      // a schema change tried before it is written as a migration: run in the inbox database first
      const db = new Client({ connectionString: testDatabaseUrl(system.databaseName("inbox")) });
      await db.connect();
      await db.query(process.env.BENCH_INBOX_SQL);
      await db.end();
      process.stdout.write(`ran in the inbox database first: ${process.env.BENCH_INBOX_SQL}\n`);
    }
    await load(system.ports.smtp, inbox.full_address, warm, messages);
    const procs = ["inbox-smtp", "inbox", "webhook-dispatcher", "tenancy", "realtime-gateway"] as const;
    const groups: Record<string, PidSource> = Object.fromEntries(procs.map((p) => [p, onePid(() => system.pid(p))]));
    if (servers) {
      groups.postgres = withChildren(() => servers.pg.postmasterPid);
      groups["nats-server"] = onePid(servers.natsPid);
      groups["redis-server"] = onePid(servers.redisPid);
    }
    const cost = pipelineCost(groups);
    // what answers the benchmark's own polling of the API once the load is sent: listed, not summed
    const polling = pipelineCost({
      "api-gateway": onePid(() => system.pid("api-gateway")),
      identity: onePid(() => system.pid("identity")),
    });
    const statements = servers ? await statementProfile(servers.pg.directUrl()) : null;
    const self = process.cpuUsage();
    const loadStarted = Date.now();
    const windowFrom = process.hrtime.bigint() / 1000n;
    const full = await load(system.ports.smtp, inbox.full_address, MESSAGES, messages);
    // the measured load's monotonic window, for `bench profile-summary --window` of BB_BENCH_PROFILE's profiles
    if (process.env.BB_BENCH_PROFILE) process.stdout.write(`profile window ${windowFrom}-${process.hrtime.bigint() / 1000n}\n`);
    const burnbox = { ...full };
    process.stdout.write(rate("BurnBox: stored + event", burnbox));
    process.stdout.write(
      `  ${((full.perSecond / peerResult.perSecond) * 100).toFixed(0)}% of MailDev's rate; max ${full.max.toFixed(0)} ms\n`,
    );

    // nothing is traded for speed: every accepted message is stored and its event is in the stream
    const expected = warm + MESSAGES;
    const deadline = Date.now() + 120_000;
    let stored = 0;
    let events = 0;
    const jsm = await jetstreamManager(nc);
    const subject = subjects(system.namespace).event("email.received");
    while (Date.now() < deadline) {
      const got = await api<{ email_count: number }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
      stored = got.body.email_count;
      const info = await jsm.streams.info(subjects(system.namespace).stream, { subjects_filter: subject });
      events = info.state.subjects?.[subject] ?? 0;
      if (stored >= expected && events >= expected) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    process.stdout.write(`stored ${stored} of ${expected}, events in the stream ${events} of ${expected}\n`);

    // the inbox's creator gets one notification per mail (realtime-gateway's consumer, under the same
    // load), after the one for the inbox's creation
    const notifications = expected + 1;
    let notified = 0;
    while (Date.now() < deadline) {
      const got = await api<{ total: number }>("GET", "/notifications?per_page=1", { token: world.owner.token });
      notified = got.body.total;
      if (notified >= notifications) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const notifySeconds = (Date.now() - loadStarted) / 1000;
    // every consumer has caught up: the cost of a message is all of it, the consumers' included
    const costs = cost(MESSAGES);
    const pollingCosts = polling(MESSAGES);
    const generator = process.cpuUsage(self);
    process.stdout.write(
      `notifications stored ${notified} of ${notifications}; the ${MESSAGES} of the measured run within ${notifySeconds.toFixed(1)} s of its start (${(MESSAGES / notifySeconds).toFixed(0)} per second)\n`,
    );
    process.stdout.write(
      `BurnBox's cost per accepted message, from the measured run's start until every consumer caught up (load generator ${((generator.user + generator.system) / 1000 / MESSAGES).toFixed(2)} ms, not counted):\n${costTable(costs)}\n`,
    );
    process.stdout.write(`summed CPU per accepted message: ${summedCpu(costs).toFixed(2)} ms\n`);
    process.stdout.write(
      `the benchmark's polling of the API meanwhile (not summed): ${pollingCosts.map((c) => `${c.name} ${c.cpuMs.toFixed(2)} ms`).join(", ")}\n`,
    );
    if (statements) process.stdout.write(`PostgreSQL, per accepted message:\n${await statements.report(MESSAGES)}\n`);
    if (AUTH) await authenticationWaits(system.ports["inbox-smtp"]);
    if (notified !== notifications) throw new Error("notifications missing or repeated");
    await transcriptStorage(testDatabaseUrl(system.databaseName("inbox")));
    if (stored !== expected || events !== expected) throw new Error("messages or events missing");

    // the checks ran and passed (not a temperror run measured as one with checks)
    const last = await api<{ data: Array<{ id: string; authentication_summary: string }> }>(
      "GET",
      `/inboxes/${inbox.id}/emails?per_page=5`,
      {
        token: world.owner.token,
      },
    );
    const summaries = last.body.data.map((e) => e.authentication_summary);
    process.stdout.write(`authentication summaries of the last 5 messages: ${summaries.join(", ")}\n`);
    if (AUTH && summaries.some((s) => s !== "pass")) throw new Error("authentication checks did not pass");

    if (SPAM_COMPARE) {
      const scored = await spamScoring(system, intakeEnv, groups, async () => {
        await load(system.ports.smtp, inbox.full_address, warm, messages);
      });
      const on = await load(system.ports.smtp, inbox.full_address, MESSAGES, messages);
      process.stdout.write(rate("BurnBox: with the spam score", on));
      process.stdout
        .write(`  scoring on / off: ${(on.perSecond / full.perSecond).toFixed(2)} of the rate; p99 ${on.p99.toFixed(1)} against ${full.p99.toFixed(1)} ms
`);
      const total = expected + warm + MESSAGES;
      await waitFor(
        async () =>
          (await api<{ email_count: number }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.email_count >= total,
        {
          timeoutMs: 120_000,
          what: "every scored message stored",
        },
      );
      const withSpam = scored.cost(MESSAGES);
      process.stdout.write(`cost per accepted message with the spam score (rspamd included):\n${costTable(withSpam)}\n`);
      process.stdout.write(
        `summed CPU per accepted message: ${summedCpu(withSpam).toFixed(2)} ms against ${summedCpu(costs).toFixed(2)} ms off\n`,
      );
      const newest = await api<{ data: Array<{ id: string; spam_score: number | null }> }>(
        "GET",
        `/inboxes/${inbox.id}/emails?per_page=20`,
        {
          token: world.owner.token,
        },
      );
      const unscored = newest.body.data.filter((e) => e.spam_score === null).length;
      process.stdout.write(`the newest 20 messages: ${20 - unscored} scored, ${unscored} unavailable\n`);
      await scored.stop();
      if (unscored === newest.body.data.length) throw new Error("no message was scored: rspamd did not answer the intake");
    }
  } finally {
    await dns?.close();
    await nc.close();
    await stopSystem();
    stopServers();
  }
}

/**
 * BENCH_SPAM=compare: a private rspamd (Debian's, as `npm start` runs it), the intake restarted
 * with `spam.rspamd_url`, warmed by `warmUp` (the run's warm-up load); `cost` is measured from after the warm-up,
 * over the pipeline's processes and rspamd's (its main process and workers).
 */
async function spamScoring(
  system: System,
  intakeEnv: Record<string, string>,
  groups: Record<string, PidSource>,
  warmUp: () => Promise<void>,
): Promise<{ cost: (units: number) => ReturnType<ReturnType<typeof pipelineCost>>; stop(): Promise<void> }> {
  if (!rspamdInstalled()) throw new Error("BENCH_SPAM=compare needs rspamd (Debian: apt-get install rspamd)");
  const [port] = await freePorts(1);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-rspamd-"));
  // detached: stopped by its pid file however the run ends, from the moment it may exist
  const stop = stopOnExit("rspamd", async () => {
    await stopRspamd(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  const url = await startRspamd(port!, dir);
  const pid = Number(readFileSync(path.join(dir, "rspamd.pid"), "utf8"));
  system.setProcessEnv("inbox-smtp", { ...intakeEnv, BB_SPAM_RSPAMD_URL: url });
  await system.stopProcess("inbox-smtp");
  await system.startProcess("inbox-smtp");
  process.stdout.write(`the intake restarted with the spam score asked of rspamd at ${url}\n`);
  await warmUp();
  const cost = pipelineCost({ ...groups, rspamd: withChildren(() => pid) });
  return { cost, stop: async () => void (await stop()) };
}

/**
 * How long the messages waited for their authentication checks past DATA (the intake's
 * `burnbox_mail_auth_check_seconds`, warm-up included): how many took longer than the 2 s budget
 * allows, and how many ran out of it (verdicts `temperror`).
 */
async function authenticationWaits(metricsPort: number): Promise<void> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sample = (name: string, labels: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith(`${name}{`) && labels.split(",").every((p) => l.includes(p)))
      .reduce((sum, l) => sum + Number(l.split(" ").at(-1)), 0);
  const checked = sample("burnbox_mail_auth_check_seconds_count", "");
  const within = (le: string) => sample("burnbox_mail_auth_check_seconds_bucket", `le="${le}"`);
  const late = sample("burnbox_mail_auth_check_seconds_count", 'outcome="late"');
  process.stdout.write(
    `authentication checks: ${checked}; within 50 ms ${within("0.05")}, within 250 ms ${within("0.25")}, within 2 s ${within("2")}; out of budget (temperror) ${late}\n`,
  );
}

/**
 * What the transcripts take (extensions section 8): the stored JSON per message (`pg_column_size`,
 * after any compression), in the emails' rows (migration 0018; the row's TOAST holds it when the
 * row is large).
 */
async function transcriptStorage(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string; value: string }>(
      `SELECT count(*)::text AS n, avg(pg_column_size(transcript))::int::text AS value FROM emails WHERE transcript IS NOT NULL`,
    );
    const row = rows[0];
    process.stdout.write(`transcripts: ${Number(row?.n ?? 0)}, ${row?.value ?? "?"} bytes of JSON each, in the emails' rows\n`);
  } finally {
    await db.end();
  }
}

main().catch(exitAfterFailure);
