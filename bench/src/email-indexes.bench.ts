/**
 * What each of the emails table's indexes and its count trigger cost an insert: the intake's rows
 * (8 KiB of text of real words, four to a statement as its group commit makes them, each statement
 * its own durable commit) written into the inbox service's schema, on the benchmark's own durable
 * PostgreSQL, with everything in place and then with one index or the trigger taken away at a time
 * (and the GIN indexes with fastupdate off, and the body words' pending list larger). Prints, per row: the backend's CPU milliseconds, the
 * wall time, and the WAL written, and each variant's difference from the full table.
 * Run: pnpm --filter @burnbox/bench email-indexes   (BENCH_ROWS, default 4000 per variant)
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { freePorts } from "@burnbox/tests-e2e";
import { PrivatePostgres } from "./private-infra";
import { cpuMs, machine } from "./stats";

const ROWS = Number(process.env.BENCH_ROWS ?? 4000);
const PER_STATEMENT = 4;
const MIGRATIONS = path.join(__dirname, "..", "..", "services", "inbox", "prisma", "migrations");

/** A vocabulary of made-up words, so that bodies hold many different ones, as mail does. */
const WORDS = Array.from({ length: 5000 }, (_, i) => (i * 2654435761).toString(36).slice(0, 3 + (i % 7)));
function body(seed: number): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < 8 * 1024 - 300; i++) {
    const w = WORDS[(seed * 7919 + i * 104729) % WORDS.length]!;
    out.push(w);
    size += w.length + 1;
  }
  return out.join(" ");
}

interface Variant {
  name: string;
  /** Statements that make the variant from the full schema, and that undo it. */
  apply: string[];
  undo: string[];
}

async function indexDefinition(db: Client, name: string): Promise<string> {
  const { rows } = await db.query<{ def: string }>("SELECT pg_get_indexdef($1::regclass) AS def", [name]);
  return rows[0]!.def;
}

async function main(): Promise<void> {
  const [port, proxy] = (await freePorts(2)) as [number, number];
  const pg = await PrivatePostgres.start(port, proxy, { durable: true });
  const admin = new Client({ connectionString: pg.directUrl() });
  await admin.connect();
  await admin.query("CREATE DATABASE inbox");
  const db = new Client({ connectionString: pg.directUrl("inbox") });
  await db.connect();
  try {
    for (const dir of readdirSync(MIGRATIONS).sort()) {
      await db.query(readFileSync(path.join(MIGRATIONS, dir, "migration.sql"), "utf8"));
    }
    const inbox = randomUUID();
    const team = randomUUID();
    await db.query(
      `INSERT INTO inboxes (id, org_id, team_id, domain_id, domain_assignment_id, created_by, address, domain_name, full_address, expires_at, ttl_ms)
       VALUES ($1, $2, $3, $2, $2, $2, 'bench', 'bench.test', 'bench@bench.test', now() + interval '1 day', 86400000)`,
      [inbox, randomUUID(), team],
    );
    const gins = ["emails_body_words_idx", "emails_from_address_trgm_idx", "emails_subject_trgm_idx", "emails_to_address_trgm_idx"];
    const defs: Record<string, string> = {};
    for (const g of gins) defs[g] = await indexDefinition(db, g);
    const variants: Variant[] = [
      { name: "everything (as shipped)", apply: [], undo: [] },
      ...gins.map((g) => ({ name: `without ${g}`, apply: [`DROP INDEX ${g}`], undo: [defs[g]!] })),
      { name: "without the four text indexes", apply: gins.map((g) => `DROP INDEX ${g}`), undo: gins.map((g) => defs[g]!) },
      {
        name: "GIN fastupdate off",
        apply: gins.map((g) => `ALTER INDEX ${g} SET (fastupdate = off)`),
        undo: gins.map((g) => `ALTER INDEX ${g} RESET (fastupdate)`),
      },
      {
        name: "body words: pending list of 32 MB",
        apply: ["ALTER INDEX emails_body_words_idx SET (gin_pending_list_limit = 32768)"],
        undo: ["ALTER INDEX emails_body_words_idx RESET (gin_pending_list_limit)"],
      },
      {
        name: "without the count trigger",
        apply: ["ALTER TABLE emails DISABLE TRIGGER emails_counted_insert"],
        undo: ["ALTER TABLE emails ENABLE TRIGGER emails_counted_insert"],
      },
    ];
    const pid = (await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const bodies = Array.from({ length: 64 }, (_, i) => body(i));
    process.stdout.write(
      `machine: ${machine()}\n${ROWS} rows of 8 KiB of words per variant, ${PER_STATEMENT} to a statement, each its own commit\n`,
    );
    let base: { cpu: number; wall: number; wal: number } | null = null;
    for (const v of variants) {
      for (const s of v.apply) await db.query(s);
      await db.query("TRUNCATE emails CASCADE");
      await db.query("CHECKPOINT");
      const lsn = (await db.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]!.lsn;
      const cpu0 = cpuMs(pid);
      const t0 = performance.now();
      for (let i = 0; i < ROWS; i += PER_STATEMENT) {
        const n = Math.min(PER_STATEMENT, ROWS - i);
        const ids = Array.from({ length: n }, () => randomUUID());
        await db.query(
          `INSERT INTO emails (id, inbox_id, from_address, to_address, subject, snippet, body_text, headers, size_bytes, raw_key, received_at)
           SELECT id, $2, 'sender' || n || '@example.org', 'bench@bench.test', 'Your code ' || n, left(b, 200), b, '{}'::jsonb, 8192, id::text, now()
           FROM unnest($1::uuid[], $3::text[], $4::int[]) AS v(id, b, n)`,
          [ids, inbox, ids.map((_, k) => bodies[(i + k) % bodies.length]!), ids.map((_, k) => i + k)],
        );
      }
      const wall = (performance.now() - t0) / ROWS;
      const cpu = (cpuMs(pid) - cpu0) / ROWS;
      const wal =
        Number((await db.query<{ b: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS b", [lsn])).rows[0]!.b) /
        ROWS;
      base ??= { cpu, wall, wal };
      const delta =
        v === variants[0]
          ? ""
          : `  (${(cpu - base.cpu >= 0 ? "+" : "") + (cpu - base.cpu).toFixed(3)} ms CPU, ${(wal - base.wal >= 0 ? "+" : "") + (wal - base.wal).toFixed(0)} B WAL)`;
      process.stdout.write(
        `${v.name.padEnd(42)} CPU ${cpu.toFixed(3)} ms  wall ${wall.toFixed(3)} ms  WAL ${wal.toFixed(0).padStart(6)} B per row${delta}\n`,
      );
      for (const s of v.undo) await db.query(s);
    }
  } finally {
    await db.end();
    await admin.end();
    pg.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
