/**
 * SMTP intake throughput, 8 KiB messages over 10 connections, two ways in one run:
 *   1. the whole system: every message parsed, its file and row stored and its email.received
 *      event published (checked at the end: the inbox counts every message, the stream holds
 *      every event);
 *   2. a bare smtp-server sink on the same machine that reads each message and answers 250.
 * Prints messages per second of both, their ratio, the CPU milliseconds per message of each
 * process and what each message's SMTP transcript takes in the database. Run: pnpm --filter @burnbox/bench smtp-intake   (BENCH_MESSAGES, default 20000;
 * BENCH_STORAGE: the intake's storage folder, a tmpfs one to see what the disk costs;
 * BENCH_NODE_ARGS: node flags for every service process, --perf-basic-prof for `perf` say;
 * BENCH_AUTH=on: the intake's authentication checks on (extensions section 3), every message
 * DKIM-signed by a sender domain whose SPF, DKIM key and DMARC record live on a local DNS server
 * (the system's `dns.servers`); off, the default: the checks turned off, as before them;
 * BENCH_AUTH=off-signed: the checks off, the same DKIM-signed messages as `on`, so that the pair
 * off-signed/on differs by the checks alone and not also by the messages' shape)
 */
import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { Client } from "pg";
import { subjects } from "@burnbox/contracts";
import { connectNats, jetstreamManager } from "@burnbox/service-kit/messaging";
import { testDatabaseUrl, testInfra } from "@burnbox/test-kit";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain, testDns } from "@burnbox/tests-e2e";
import { cpuPerUnit, machine, othersPerUnit, percentile } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONNECTIONS = 10;
const TEXT = "x".repeat(8 * 1024 - 300); // with the headers, about 8 KiB on the wire
const AUTH = (process.env.BENCH_AUTH ?? "off") === "on";
/** The DKIM-signed messages of `on`, sent with the checks on or (off-signed) off. */
const SIGNED = AUTH || process.env.BENCH_AUTH === "off-signed";
/** The sender domain of BENCH_AUTH=on, its DKIM selector, and how many signed messages are made beforehand and sent in turn. */
const SENDER_DOMAIN = "sender.bench.test";
const SELECTOR = "bench";
const SIGNED_POOL = 50;

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

async function main(): Promise<void> {
  process.stdout.write(
    `machine: ${machine()}\n${MESSAGES} messages of 8 KiB over ${CONNECTIONS} connections; authentication checks ${AUTH ? "on (DKIM-signed mail, SPF, DMARC on a local DNS)" : SIGNED ? "off (the same DKIM-signed mail)" : "off"}\n`,
  );
  const sink = await bareSink();
  const warm = Math.min(500, MESSAGES);
  await load(sink.port, "bench@sink.test", warm);
  const bare = await load(sink.port, "bench@sink.test", MESSAGES);
  await sink.close();
  process.stdout.write(`bare smtp-server sink          ${bare.perSecond.toFixed(0).padStart(6)} msg/s  p99 ${bare.p99.toFixed(1)} ms\n`);

  // the load comes from one address over few connections: lift the intake's per-IP and per-connection limits
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn", ...(process.env.BENCH_NODE_ARGS ? { BB_BENCH_NODE_ARGS: process.env.BENCH_NODE_ARGS } : {}) },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
    "inbox-smtp": {
      ...(process.env.BENCH_STORAGE ? { BB_STORAGE_LOCAL_PATH: process.env.BENCH_STORAGE } : {}),
      BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "100000000",
      BB_SMTP_MAX_MESSAGES_PER_CONNECTION: "100000000",
      BB_AUTHENTICATION_ENABLED: AUTH ? "true" : "false",
    },
  });
  const nc = await connectNats(testInfra.natsUrl, "bench");
  // negative answers kept an hour, as a real zone's SOA would allow (the DMARC walk asks names that do not exist)
  const dns = SIGNED ? await testDns(system.ports.dns, { negativeTtl: 3600 }) : null;
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "bench");
    const messages = dns ? await signedMessages(dns, inbox.full_address) : plainMessages;
    await load(system.ports.smtp, inbox.full_address, warm, messages);
    const procs = ["inbox-smtp", "inbox", "webhook-dispatcher", "tenancy", "realtime-gateway"] as const;
    const cpu = cpuPerUnit(Object.fromEntries(procs.map((p) => [p, system.pid(p)])));
    const others = othersPerUnit();
    const loadStarted = Date.now();
    const windowFrom = process.hrtime.bigint() / 1000n;
    const full = await load(system.ports.smtp, inbox.full_address, MESSAGES, messages);
    // the measured load's monotonic window, for `bench profile-summary --window` of BB_BENCH_PROFILE's profiles
    if (process.env.BB_BENCH_PROFILE) process.stdout.write(`profile window ${windowFrom}-${process.hrtime.bigint() / 1000n}\n`);
    const perMessage = cpu(MESSAGES);
    const othersPerMessage = others(MESSAGES);
    process.stdout.write(
      `intake: stored + event          ${full.perSecond.toFixed(0).padStart(6)} msg/s  p99 ${full.p99.toFixed(1)} ms  max ${full.max.toFixed(0)} ms\n`,
    );
    process.stdout.write(`ratio to the bare sink: ${((full.perSecond / bare.perSecond) * 100).toFixed(1)}%\n`);
    process.stdout.write(`CPU ms per message: ${perMessage}\n`);
    process.stdout.write(`CPU ms per message, the rest of the machine: ${othersPerMessage}\n`);
    if (AUTH) await authenticationWaits(system.ports["inbox-smtp"]);

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
    process.stdout.write(
      `notifications stored ${notified} of ${notifications}; the ${MESSAGES} of the measured run within ${notifySeconds.toFixed(1)} s of its start (${(MESSAGES / notifySeconds).toFixed(0)} per second)\n`,
    );
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
  } finally {
    await dns?.close();
    await nc.close();
    await system.stop();
  }
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
 * after any compression) and the table with its index and TOAST per message.
 */
async function transcriptStorage(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string; value: string; total: string }>(
      `SELECT count(*)::text AS n, avg(pg_column_size(transcript))::int::text AS value,
         pg_total_relation_size('email_transcripts')::text AS total FROM email_transcripts`,
    );
    const row = rows[0];
    const n = Number(row?.n ?? 0);
    process.stdout.write(
      `transcripts: ${n}, ${row?.value ?? "?"} bytes of JSON each, ${n ? Math.round(Number(row?.total) / n) : "?"} bytes each with row, index and TOAST\n`,
    );
  } finally {
    await db.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
