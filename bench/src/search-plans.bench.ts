/**
 * The plans of the busy inbox's searches on a seeded database that is kept between runs
 * (docs/performance.md, "Searching a big inbox"): the first run creates BENCH_DB, migrates it with
 * this checkout's inbox migrations and seeds BENCH_EMAILS emails of seed-mail.ts (10,000 inboxes;
 * the busy inbox holds one in ten) through the bulk write path, then VACUUM ANALYZE; later runs
 * find it seeded and only migrate it (a new migration applies to the kept data: the time it took
 * is printed) and read. For each search of scale.bench.ts (and a few more), EXPLAIN (ANALYZE,
 * BUFFERS) of the statement the inbox service sends (`searchPageSql`, email.repository.ts), in a
 * transaction with the server's settings and in one with the service's `SEARCH_SETTINGS`, each run
 * BENCH_RUNS times; the median execution time, the buffers and the plan of the last run are printed.
 *
 * Run: pnpm --filter @burnbox/bench search-plans
 *   BENCH_DB=bb_search_plans_1m  BENCH_EMAILS=1000000  BENCH_RUNS=5  BENCH_PLANS=1 (print the plans)
 *   BENCH_ONLY=<label substring>  BENCH_DROP=1 (drop the database at the end)
 */
import os from "node:os";
import path from "node:path";
import { prepareDatabase } from "@burnbox/service-kit/data";
import { dropDatabase, testDatabaseUrl } from "@burnbox/test-kit";
import { SEARCH_SETTINGS, searchPageSql } from "../../services/inbox/src/data/email.repository";
import { parseEmailSearch } from "../../services/inbox/src/domain/emails/email-search";
import type { MessageStore } from "../../services/inbox/src/domain/message-store";
import type { Prisma } from "../../services/inbox/src/data/prisma";
import { explainPlan } from "./explain";
import { newTally, seedDetachedTeam, seedEmails } from "./seed-mail";
import { machine } from "./stats";

const DB = process.env.BENCH_DB ?? "bb_search_plans_1m";
const EMAILS = Number(process.env.BENCH_EMAILS ?? 1_000_000);
const INBOXES = Number(process.env.BENCH_INBOXES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PLANS = process.env.BENCH_PLANS !== "0";
const ONLY = process.env.BENCH_ONLY;
const ROOT = path.resolve(__dirname, "..", "..");
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

type Pool = Awaited<ReturnType<typeof prepareDatabase>>;

/** Raw messages are not what these reads touch: none are written. */
const noStore = { put: async () => {} } as unknown as MessageStore;

async function seed(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM emails");
  if (rows[0]!.n === EMAILS) return;
  if (rows[0]!.n !== 0) throw new Error(`${DB} holds ${rows[0]!.n} emails, not ${EMAILS}: drop it (BENCH_DROP=1) and run again`);
  const { bulk, plan: p } = await seedDetachedTeam(pool, INBOXES);
  const t0 = Date.now();
  await seedEmails(bulk, noStore, p, { from: 0, to: EMAILS, rawEvery: Number.MAX_SAFE_INTEGER }, newTally());
  process.stdout.write(`seeded ${EMAILS.toLocaleString("en")} emails in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  await pool.query("VACUUM ANALYZE emails");
  await pool.query("VACUUM ANALYZE inboxes");
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement after `settings` in its transaction, RUNS times: the median execution time, the last plan. */
async function explain(pool: Pool, settings: Prisma.Sql | null, sql: Prisma.Sql): Promise<{ ms: number; plan: string; buffers: string }> {
  const times: number[] = [];
  let plan = "";
  for (let i = 0; i < RUNS; i++) {
    plan = await explainPlan(pool, sql.text, sql.values, settings?.text);
    times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]));
  }
  times.sort((a, b) => a - b);
  const top = plan.split("\n").find((l) => l.includes("Buffers:")) ?? "";
  return { ms: times[Math.floor(times.length / 2)]!, plan, buffers: top.trim() };
}

async function main(): Promise<void> {
  process.stdout.write(`machine: ${machine()}\nload average at start: ${loadavg()}\n`);
  const url = testDatabaseUrl(DB);
  const t0 = Date.now();
  const pool = await prepareDatabase(url, path.join(ROOT, "services", "inbox", "prisma", "migrations"), undefined, 2);
  try {
    const { rows: applied } = await pool.query<{ name: string }>('SELECT name FROM "_bb_migrations" WHERE applied_at >= $1 ORDER BY name', [
      new Date(t0),
    ]);
    if (applied.length > 0)
      process.stdout.write(`migrations applied in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${applied.map((a) => a.name).join(", ")}\n`);
    await seed(pool);
    const { rows: inboxes } = await pool.query<{ id: string; address: string; org_id: string; team_id: string }>(
      "SELECT id::text, address, org_id::text, team_id::text FROM inboxes WHERE address IN ('ci-busy', 'qa-5')",
    );
    const busy = inboxes.find((i) => i.address === "ci-busy")!;
    const typical = inboxes.find((i) => i.address === "qa-5")!;
    const scope = { orgId: busy.org_id, teamId: busy.team_id };
    const { rows: size } = await pool.query<{ emails: number; table: string; indexes: string }>(
      `SELECT (SELECT count(*)::int FROM emails) AS emails, pg_size_pretty(pg_table_size('emails')) AS table,
              pg_size_pretty(pg_indexes_size('emails')) AS indexes`,
    );
    process.stdout.write(`${DB}: ${size[0]!.emails} emails; table ${size[0]!.table}, indexes ${size[0]!.indexes}\n`);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const reads: Array<[string, string, string, number]> = [
      ["Globex, busy inbox", busy.id, "Globex", 1],
      [
        'subject:"verification code" is:unread after:<30 days>, busy inbox',
        busy.id,
        `subject:"verification code" is:unread after:${monthAgo}`,
        1,
      ],
      ["from:sender-7. -has:attachment, busy inbox", busy.id, "from:sender-7. -has:attachment", 1],
      ["invoice, typical inbox", typical.id, "invoice", 1],
      ["invoice, busy inbox (a common word)", busy.id, "invoice", 1],
      ["the, busy inbox (in nearly every body)", busy.id, "the", 1],
      ["Globex, busy inbox, page 50", busy.id, "Globex", 50],
      ["-the, busy inbox (a negated word: no index)", busy.id, "-the", 1],
    ];
    for (const [label, inboxId, q, page] of reads) {
      if (ONLY && !label.includes(ONLY)) continue;
      const search = parseEmailSearch(q)!;
      const window = { skip: (page - 1) * 20, take: 20 };
      const statement = searchPageSql(scope, inboxId, search, window);
      process.stdout.write(`\n== ${label} (q=${q}, page ${page}); load average ${loadavg()}\n`);
      for (const [name, settings] of [
        ["server's settings", null],
        [SEARCH_SETTINGS.text, SEARCH_SETTINGS],
      ] as const) {
        const r = await explain(pool, settings, statement);
        process.stdout.write(`${name}: median ${r.ms.toFixed(2)} ms of ${RUNS}; ${r.buffers}\n`);
        if (PLANS) process.stdout.write(`${r.plan.replace(/^/gm, "    ")}\n`);
      }
    }
    process.stdout.write(`\nload average at end: ${loadavg()}\n`);
  } finally {
    await pool.end();
    if (process.env.BENCH_DROP === "1") await dropDatabase(url);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
