/**
 * Retention without stalls (issue 30 item 3). A system of its own on a private PostgreSQL cluster
 * (bench/src/private-infra.ts) is seeded with BENCH_INBOXES inboxes of BENCH_EMAILS_PER_INBOX emails
 * each (rows, and each email's stored message file in local storage), all unexpired. Then two
 * phases of the same load, BENCH_SECONDS each: SMTP senders as fast as BENCH_CONNECTIONS connections
 * go, and list reads at BENCH_LIST_RATE (an inbox's email list and the team's inbox list, through
 * the gateway). Phase 1 runs without cleanup (the baseline); at the start of phase 2 every seeded
 * inbox expires, and the TTL cleanup removes them, rows and files, while the load goes on. Prints
 * both curves (intake msg/s and list p99 per 5 s, with the seeded mail left) and the ratios; the
 * cleanup is then waited for to the end, and its duration printed. Seeded data goes with the
 * system's databases at the end.
 * Run: node deploy/local/build.mjs && pnpm --filter @burnbox/bench retention
 *      (BENCH_INBOXES=100000 BENCH_EMAILS_PER_INBOX=10 for the full size)
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "pg";
import { testInfra, waitFor } from "@burnbox/test-kit";
import { apiClient, createInbox, freePorts, sendMail, teamWithDomain } from "@burnbox/tests-e2e";
import { PrivatePostgres, startSystem } from "./private-infra";
import { machine, percentile } from "./stats";

const INBOXES = Number(process.env.BENCH_INBOXES ?? 10_000);
const PER_INBOX = Number(process.env.BENCH_EMAILS_PER_INBOX ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const LIST_RATE = Number(process.env.BENCH_LIST_RATE ?? 10);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55433);
const BUCKET_MS = 5000;
const CHUNK = 2000; // inboxes per seeding statement

const raw = (i: number) =>
  Buffer.from(
    `From: sender${i % 97}@example.org\r\nTo: seeded@example.org\r\nSubject: Seeded ${i}\r\n\r\n${"lorem ipsum dolor sit amet ".repeat(60)}\r\n`,
  );

/** Inserts the seeded inboxes and emails (in chunks) and writes each email's message file; returns the bytes written. */
async function seed(db: Client, liveInboxId: string, storageRoot: string): Promise<number> {
  let bytes = 0;
  for (let from = 1; from <= INBOXES; from += CHUNK) {
    const to = Math.min(INBOXES, from + CHUNK - 1);
    const { rows } = await db.query<{ raw_key: string }>(
      `WITH ib AS (
         INSERT INTO inboxes (id, org_id, team_id, domain_id, domain_assignment_id, created_by, address, domain_name, full_address,
                              is_active, private, expires_at, ttl_ms, created_at)
         SELECT gen_random_uuid(), t.org_id, t.team_id, t.domain_id, t.domain_assignment_id, t.created_by, 'seed-' || g, t.domain_name,
                'seed-' || g || '@' || t.domain_name, true, false, now() + interval '1 day', t.ttl_ms, now() - interval '2 hours'
         FROM inboxes t, generate_series($1::int, $2::int) g WHERE t.id = $3::uuid
         RETURNING id, full_address),
       em AS (SELECT gen_random_uuid() AS id, ib.id AS inbox_id, ib.full_address, n FROM ib CROSS JOIN generate_series(1, $4::int) n)
       INSERT INTO emails (id, inbox_id, from_address, to_address, subject, snippet, body_text, headers, size_bytes, raw_key, received_at)
       SELECT em.id, em.inbox_id, 'sender' || (n % 97) || '@example.org', em.full_address, 'Seeded ' || n, 'lorem ipsum dolor',
              repeat('lorem ipsum dolor sit amet ', 60), '{}'::jsonb, 1700, em.inbox_id || '/' || em.id || '/message.eml',
              now() - interval '1 hour' - make_interval(secs => n)
       FROM em RETURNING raw_key`,
      [from, to, liveInboxId, PER_INBOX],
    );
    const keys = rows.map((r) => r.raw_key);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let key = keys.pop(); key !== undefined; key = keys.pop()) {
          const file = path.join(storageRoot, key);
          await mkdir(path.dirname(file), { recursive: true });
          const body = raw(bytes);
          await writeFile(file, body);
          bytes += body.length;
        }
      }),
    );
    process.stdout.write(`  seeded ${to} inboxes\n`);
  }
  return bytes;
}

interface Bucket {
  accepted: number;
  lists: number[];
  left: number;
}

async function main(): Promise<void> {
  const [proxyPort] = (await freePorts(1)) as [number];
  const pg = await PrivatePostgres.start(PG_PORT, proxyPort);
  testInfra.postgresUrl = pg.url;
  const onSignal = () => {
    pg.stop();
    process.exit(130);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  const system = await startSystem({
    all: { BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1", BB_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "1000000" },
    "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "1000000" },
  });
  const db = new Client({ connectionString: pg.directUrl(system.databaseName("inbox")) });
  await db.connect();
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const live = await createInbox(api, world.owner.token, world.assignmentId, "live");
    for (let i = 0; i < 20; i++)
      await sendMail(system.ports.smtp, { from: "a@example.org", to: live.full_address, subject: `live ${i}`, text: "x" });
    const storageRoot = path.join(__dirname, "..", "..", ".test-results", "storage", system.namespace);
    process.stdout.write(
      `${machine()}\nretention: ${INBOXES} inboxes x ${PER_INBOX} emails (local storage), ${CONNECTIONS} SMTP connections, ${LIST_RATE} list reads/s, ${SECONDS} s per phase\n`,
    );
    const t0 = Date.now();
    const bytes = await seed(db, live.id, storageRoot);
    // one statement per query: a multi-statement string runs as one transaction, where VACUUM cannot
    await db.query("VACUUM ANALYZE inboxes");
    await db.query("VACUUM ANALYZE emails");
    process.stdout.write(
      `seeded ${INBOXES * PER_INBOX} emails, ${(bytes / 2 ** 20).toFixed(0)} MiB of files, in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
    );

    const seededLeft = async () =>
      Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM emails WHERE to_address LIKE 'seed-%'")).rows[0]?.n ?? 0);

    /** The load for `seconds`: the curves, per BUCKET_MS. */
    const phase = async (seconds: number): Promise<Bucket[]> => {
      const start = Date.now();
      const end = start + seconds * 1000;
      const buckets: Bucket[] = [];
      const bucket = (): Bucket => {
        const i = Math.floor((Date.now() - start) / BUCKET_MS);
        while (buckets.length <= i) buckets.push({ accepted: 0, lists: [], left: NaN });
        return buckets[i] as Bucket;
      };
      let n = 0;
      const senders = Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < end) {
          const r = await sendMail(system.ports.smtp, {
            from: "load@example.org",
            to: live.full_address,
            subject: `load ${n++}`,
            text: "load",
          }).catch(() => null);
          if (r?.data?.code === 250 && Date.now() < end) bucket().accepted++;
        }
      });
      const lists = (async () => {
        const paths = [`/inboxes/${live.id}/emails?per_page=20`, `/inboxes?team_id=${world.teamId}&per_page=20`];
        const pending: Array<Promise<void>> = [];
        for (let i = 0; Date.now() < end; i++) {
          const at = start + (i * 1000) / LIST_RATE;
          await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
          pending.push(
            (async () => {
              const t = performance.now();
              const res = await api("GET", paths[i % 2] as string, { token: world.owner.token });
              if (res.status === 200 && Date.now() < end) bucket().lists.push(performance.now() - t);
            })(),
          );
        }
        await Promise.all(pending);
      })();
      const counter = (async () => {
        while (Date.now() < end) {
          const b = bucket();
          b.left = await seededLeft();
          await new Promise((r) => setTimeout(r, Math.max(0, Math.min(BUCKET_MS, end - Date.now()))));
        }
      })();
      await Promise.all([...senders, lists, counter]);
      return buckets;
    };
    const show = (name: string, buckets: Bucket[]) => {
      process.stdout.write(`${name}\n   t(s)  intake msg/s  list p99 ms  seeded emails left\n`);
      buckets.forEach((b, i) =>
        process.stdout.write(
          `  ${String((i * BUCKET_MS) / 1000).padStart(5)}  ${(b.accepted / (BUCKET_MS / 1000)).toFixed(1).padStart(12)}  ${percentile(b.lists, 99).toFixed(1).padStart(11)}  ${String(b.left).padStart(18)}\n`,
        ),
      );
      const all = buckets.flatMap((b) => b.lists);
      const rate = buckets.reduce((a, b) => a + b.accepted, 0) / SECONDS;
      return { rate, p99: percentile(all, 99), p50: percentile(all, 50) };
    };

    const baseline = show("phase 1, no cleanup (baseline)", await phase(SECONDS));
    const expiredAt = Date.now();
    const { rowCount } = await db.query("UPDATE inboxes SET expires_at = now() WHERE address LIKE 'seed-%'");
    process.stdout.write(`${rowCount} seeded inboxes expired\n`);
    const during = show("phase 2, TTL cleanup running", await phase(SECONDS));
    await waitFor(async () => (await seededLeft()) === 0, { what: "the cleanup to finish", timeoutMs: 3_600_000, intervalMs: 2000 });
    await waitFor(
      async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM inboxes WHERE address LIKE 'seed-%'")).rows[0]?.n) === 0,
      { what: "the seeded inboxes to go", timeoutMs: 3_600_000, intervalMs: 2000 },
    );
    const cleanupS = (Date.now() - expiredAt) / 1000;
    const folders = (await readdir(storageRoot)).length;
    process.stdout.write(
      [
        `cleanup of ${INBOXES} inboxes / ${INBOXES * PER_INBOX} emails: ${cleanupS.toFixed(0)} s (${((INBOXES * PER_INBOX) / cleanupS).toFixed(0)} emails/s); folders left in storage: ${folders} (the live inbox's)`,
        `intake: ${baseline.rate.toFixed(1)} msg/s without cleanup, ${during.rate.toFixed(1)} during (${((100 * during.rate) / baseline.rate).toFixed(0)}%; target >= 80%)`,
        `list p99: ${baseline.p99.toFixed(1)} ms without cleanup, ${during.p99.toFixed(1)} during (x${(during.p99 / baseline.p99).toFixed(2)}; target < 2); p50 ${baseline.p50.toFixed(1)} / ${during.p50.toFixed(1)} ms`,
      ].join("\n") + "\n",
    );
  } finally {
    await db.end();
    await system.stop();
    pg.stop();
  }
}

void main();
