/**
 * What an index on the text body costs the write and buys the word search (docs/performance.md,
 * "Free words in bodies"). For each candidate, a database of its own migrated like the inbox
 * service's (up to 0009, without 0010's body index), the candidate's index added, then N emails of
 * seed-mail.ts written through the bulk write path (one `INSERT … SELECT FROM unnest` per 5,000,
 * which is per row what the intake's insert pays) on one connection, timing each batch and reading
 * that PostgreSQL backend's CPU from /proc (PostgreSQL runs on this machine): CPU per email is the
 * figure a busy machine leaves honest. Then, after VACUUM ANALYZE, EXPLAIN ANALYZE of the count and
 * page 1 of a word search in the busy inbox with the candidate's condition.
 *
 * Run: pnpm --filter @burnbox/bench body-index
 *   BENCH_EMAILS=100000  BENCH_VARIANTS=none,tsvector,trigram,migrated  BENCH_WORD=Globex
 *   BENCH_MIGRATIONS_DIR (default: this checkout's inbox migrations; `migrated` takes them as they are)
 * The databases are dropped at the end.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareDatabase } from "@burnbox/service-kit/data";
import { dropDatabase, testDatabaseUrl } from "@burnbox/test-kit";
import { BODY_WORDS } from "../../services/inbox/src/data/email.repository";
import { emailOf, seedDetachedTeam } from "./seed-mail";
import { machine } from "./stats";

const EMAILS = Number(process.env.BENCH_EMAILS ?? 100_000);
const INBOXES = Number(process.env.BENCH_INBOXES ?? 10_000);
const WORD = process.env.BENCH_WORD ?? "Globex";
const BATCH = 5000;
const ROOT = path.resolve(__dirname, "..", "..");
/** Another checkout's migrations (BENCH_MIGRATIONS_DIR) compare its `migrated` write cost with this one's. */
const MIGRATIONS = process.env.BENCH_MIGRATIONS_DIR ?? path.join(ROOT, "services", "inbox", "prisma", "migrations");
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The body condition a candidate serves, beside the trigram-indexed subject and sender. */
const TSV = "to_tsvector('simple'::regconfig, left(e.body_text, 100000))";
const variants: Record<string, { ddl: string[]; body: string }> = {
  none: { ddl: [], body: "e.body_text ILIKE $2" },
  tsvector: {
    ddl: [`CREATE INDEX emails_body_tsv_idx ON emails USING GIN (${TSV.replace(/e\./g, "")})`],
    body: `${TSV} @@ phraseto_tsquery('simple', $3)`,
  },
  "tsvector-column": {
    ddl: [
      `ALTER TABLE emails ADD COLUMN body_tsv tsvector GENERATED ALWAYS AS (${TSV.replace(/e\./g, "")}) STORED`,
      "CREATE INDEX emails_body_tsv_col_idx ON emails USING GIN (body_tsv)",
    ],
    body: "e.body_tsv @@ phraseto_tsquery('simple', $3)",
  },
  trigram: { ddl: ["CREATE INDEX emails_body_trgm_idx ON emails USING GIN (body_text gin_trgm_ops)"], body: "e.body_text ILIKE $2" },
  // the migrations as they are, nothing dropped or added: the inbox-scoped indexes (0013's priced body words) and kept counts
  migrated: { ddl: [], body: `${BODY_WORDS.text} @@ phraseto_tsquery('simple', $3)` },
};

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function run(name: string): Promise<void> {
  const v = variants[name];
  if (!v) throw new Error(`unknown variant ${name}`);
  const url = testDatabaseUrl(`bb_bodyidx_${name.replace(/\W/g, "_")}_${randomBytes(3).toString("hex")}`);
  const pool = await prepareDatabase(url, MIGRATIONS, undefined, 1);
  try {
    // the migrations of this worktree may already hold the body index: start from 0009's indexes
    if (name !== "migrated") await pool.query("DROP INDEX IF EXISTS emails_body_words_idx");
    for (const ddl of v.ddl) await pool.query(ddl);
    const { rows: pidRow } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const pid = pidRow[0]!.pid;
    const { bulk, plan: p } = await seedDetachedTeam(pool, INBOXES);
    let wall = 0;
    let cpu = 0;
    for (let start = 0; start < EMAILS; start += BATCH) {
      const rows = [];
      for (let n = start; n < Math.min(EMAILS, start + BATCH); n++) {
        const { senderDomain: _domain, ...e } = emailOf(p, n);
        rows.push(e);
      }
      const c0 = cpuSeconds(pid);
      const t0 = performance.now();
      const written = await bulk.insertEmails(p.scope, rows);
      wall += (performance.now() - t0) / 1000;
      cpu += cpuSeconds(pid) - c0;
      if (written !== rows.length) throw new Error(`wrote ${written} of ${rows.length}`);
    }
    const c0 = cpuSeconds(pid);
    await pool.query("VACUUM ANALYZE emails");
    const vacuumCpu = cpuSeconds(pid) - c0;
    const { rows: size } = await pool.query<{ table: string; body_index: string | null }>(
      `SELECT pg_size_pretty(pg_table_size('emails')) AS table,
              (SELECT pg_size_pretty(sum(pg_relation_size(indexrelid))) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
               WHERE i.indrelid = 'emails'::regclass AND c.relname LIKE 'emails_body%') AS body_index`,
    );
    process.stdout.write(
      `\n== ${name}: ${EMAILS.toLocaleString("en")} emails in ${wall.toFixed(1)} s wall (${Math.round(EMAILS / wall)}/s), ` +
        `backend CPU ${cpu.toFixed(1)} s = ${((cpu / EMAILS) * 1e6).toFixed(0)} µs per email (+ VACUUM ANALYZE ${vacuumCpu.toFixed(1)} s); ` +
        `table ${size[0]?.table}, body index ${size[0]?.body_index ?? "none"}; load average ${loadavg()}\n`,
    );
    // `migrated` on migrations before 0013 (BENCH_MIGRATIONS_DIR): the body's words are 0010's expression, not a function
    const { rows: priced } = await pool.query<{ fn: string | null }>("SELECT to_regproc('email_body_words')::text AS fn");
    const body = name === "migrated" && priced[0]?.fn === null ? variants.tsvector!.body : v.body;
    const where = `e.inbox_id = $1 AND (e.subject ILIKE $2 OR e.from_address ILIKE $2 OR ${body})`;
    for (const [label, inbox, sql] of [
      ["count, busy inbox", p.inboxIds[0], `SELECT count(*) FROM emails e WHERE ${where}`],
      ["page 1, busy inbox", p.inboxIds[0], `SELECT e.id FROM emails e WHERE ${where} ORDER BY e.received_at DESC, e.id DESC LIMIT 20`],
      ["count, a typical inbox", p.inboxIds[5], `SELECT count(*) FROM emails e WHERE ${where}`],
    ] as const) {
      const params = [inbox, `%${WORD}%`, ...(body.includes("$3") ? [WORD] : [])];
      // the statement as the service sends it: with its parameters (generic or custom plan, PostgreSQL's choice)
      const explained = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      process.stdout.write(`-- ${name}, ${label} (${WORD})\n${explained.rows.map((r) => r["QUERY PLAN"]).join("\n")}\n`);
    }
  } finally {
    await pool.end();
    await dropDatabase(url);
  }
}

async function main(): Promise<void> {
  process.stdout.write(`machine: ${machine()}\nload average at start: ${loadavg()}\n`);
  for (const name of (process.env.BENCH_VARIANTS ?? "none,tsvector,trigram").split(",")) await run(name);
  process.stdout.write(`\nload average at end: ${loadavg()}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
