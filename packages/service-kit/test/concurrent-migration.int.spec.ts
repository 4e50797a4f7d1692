import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { LogCapture, dropDatabase, testDatabaseUrl, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import { ensureDatabase, runMigrations } from "../src/data";
import { NO_TRANSACTION_MARKER } from "../src/data/migration-sql";
import { createLogger } from "../src/runtime";

/**
 * Migrations that cannot run in a transaction (db.ts, runMigrations; the marker in migration-sql.ts)
 * against the real PostgreSQL: a concurrent index build lets writes to `emails` go on, a failed one
 * is built again at the next run, and a second runner waiting for the lock does not deadlock with it.
 *
 * The build is held at a known point rather than timed: a transaction that has written to emails
 * and stays open makes any index build on emails wait for it (a concurrent one in its "waiting for
 * writers" phase, a plain one for its table lock), and the test writes meanwhile.
 */
describe("migrations outside a transaction", () => {
  let url: string;
  let dir: string;
  let db: Client;
  const clients: Client[] = [];

  const connect = async (applicationName?: string): Promise<Client> => {
    const u = new URL(url);
    if (applicationName) u.searchParams.set("application_name", applicationName);
    const c = new Client({ connectionString: u.toString() });
    await c.connect();
    clients.push(c);
    return c;
  };
  const migration = (name: string, sql: string) => {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  };
  const indexValid = async (name: string): Promise<boolean | null> => {
    const { rows } = await db.query<{ valid: boolean }>("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)", [
      name,
    ]);
    return rows[0]?.valid ?? null;
  };
  const recorded = async (): Promise<string[]> =>
    (await db.query<{ name: string }>('SELECT name FROM "_bb_migrations" ORDER BY name')).rows.map((r) => r.name);
  /** An open transaction that has written to emails: index builds on emails wait for it to end. */
  const openWriter = async (): Promise<Client> => {
    const holder = await connect();
    await holder.query("BEGIN");
    await holder.query("INSERT INTO emails (inbox_id, subject, message_id) VALUES (gen_random_uuid(), 'held', 'held')");
    return holder;
  };
  /** The index build running in this test's database, once it has started: its command and phase. */
  const buildInProgress = () =>
    waitFor(
      async () =>
        (
          await db.query<{ command: string; phase: string }>(
            "SELECT p.command, p.phase FROM pg_stat_progress_create_index p JOIN pg_database d ON d.oid = p.datid WHERE d.datname = current_database()",
          )
        ).rows[0],
      { what: "the index build to start" },
    );

  beforeEach(async () => {
    url = testDatabaseUrl(`bb_mig_${uniqueNamespace("c")}`);
    dir = mkdtempSync(path.join(os.tmpdir(), "bb-migrations-"));
    await ensureDatabase(url);
    migration(
      "0001_emails",
      `CREATE TABLE "emails" ("id" bigserial PRIMARY KEY, "inbox_id" uuid NOT NULL, "subject" text NOT NULL, "message_id" text);
       INSERT INTO "emails" ("inbox_id", "subject", "message_id")
       SELECT gen_random_uuid(), 'subject ' || n, 'm' || n FROM generate_series(1, 20000) AS n;`,
    );
    expect(await runMigrations(url, dir)).toEqual(["0001_emails"]);
    db = await connect();
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(url);
  });

  it("when a no-transaction migration builds an index on emails, then writes to emails go on while it builds", async () => {
    const holder = await openWriter();
    migration(
      "0002_subject_index",
      `-- the subject index, built without holding the intake's writes\n${NO_TRANSACTION_MARKER}\n` +
        'CREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_subject_idx" ON "emails" ("subject");\nANALYZE "emails";\n',
    );
    const running = runMigrations(url, dir);
    expect(await buildInProgress()).toMatchObject({ command: "CREATE INDEX CONCURRENTLY" });
    // the build holds SHARE UPDATE EXCLUSIVE on emails, which writers' ROW EXCLUSIVE does not wait for
    const locks = await db.query<{ mode: string }>(
      "SELECT l.mode FROM pg_locks l JOIN pg_stat_progress_create_index p ON p.pid = l.pid WHERE l.relation = 'emails'::regclass",
    );
    expect(locks.rows.map((r) => r.mode)).toEqual(["ShareUpdateExclusiveLock"]);

    const writer = await connect();
    for (let i = 0; i < 50; i++)
      await writer.query("INSERT INTO emails (inbox_id, subject, message_id) VALUES (gen_random_uuid(), $1, $1)", [`during build ${i}`]);
    await writer.query("UPDATE emails SET subject = 'renamed during build' WHERE message_id = 'm1'");
    await writer.query("DELETE FROM emails WHERE message_id = 'm2'");
    // every write committed, and the build is still where it was: not done, not recorded
    expect((await buildInProgress()).command).toBe("CREATE INDEX CONCURRENTLY");
    expect(await recorded()).toEqual(["0001_emails"]);

    await holder.query("COMMIT");
    expect(await running).toEqual(["0002_subject_index"]);
    expect(await indexValid('"emails_subject_idx"')).toBe(true);
    expect(await recorded()).toEqual(["0001_emails", "0002_subject_index"]);
    // the index holds the rows written during the build
    await db.query("SET enable_seqscan = off");
    const found = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM emails WHERE subject LIKE 'during build %' OR subject = 'renamed during build'",
    );
    expect(Number(found.rows[0]?.n)).toBe(51);
  });

  it("when the same index is built in the migration's transaction, then writes to emails wait for it", async () => {
    const holder = await openWriter();
    migration("0002_subject_index", 'CREATE INDEX "emails_subject_idx" ON "emails" ("subject");\n');
    const running = runMigrations(url, dir);
    // the build waits for the open writer with its SHARE lock requested; a new writer queues behind it
    await waitFor(
      async () =>
        (
          await db.query(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'CREATE INDEX%'",
          )
        ).rowCount === 1,
      { what: "the index build to wait for its lock" },
    );
    const writer = await connect("blocked-writer");
    const write = writer.query("INSERT INTO emails (inbox_id, subject) VALUES (gen_random_uuid(), 'waits')");
    const blocked = await waitFor(
      async () =>
        (
          await db.query<{ blockers: number[] }>(
            "SELECT pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE application_name = 'blocked-writer' AND wait_event_type = 'Lock'",
          )
        ).rows[0],
      { what: "the writer to wait" },
    );
    expect(blocked.blockers.length).toBeGreaterThan(0);

    await holder.query("COMMIT");
    await write;
    expect(await running).toEqual(["0002_subject_index"]);
  });

  it("when a concurrent build fails part way, then the next run drops the invalid index it left and builds it again", async () => {
    await db.query("UPDATE emails SET message_id = 'dup' WHERE message_id IN ('m1', 'm2')");
    migration(
      "0002_message_keys",
      `${NO_TRANSACTION_MARKER}\n` +
        'CREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_inbox_idx" ON "emails" ("inbox_id");\n' +
        'CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "emails_message_id_key" ON "emails" ("message_id");\n',
    );
    await expect(runMigrations(url, dir)).rejects.toThrow(
      /migration 0002_message_keys failed at statement 2 of 2 .*could not create unique index/,
    );
    // the first statement stayed; the failed build left its index, invalid; nothing is recorded
    expect(await indexValid('"emails_inbox_idx"')).toBe(true);
    expect(await indexValid('"emails_message_id_key"')).toBe(false);
    expect(await recorded()).toEqual(["0001_emails"]);
    // which IF NOT EXISTS alone would keep for good: it finds the name and skips the build
    await db.query('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "emails_message_id_key" ON "emails" ("message_id")');
    expect(await indexValid('"emails_message_id_key"')).toBe(false);

    await db.query("DELETE FROM emails WHERE id = (SELECT max(id) FROM emails WHERE message_id = 'dup')");
    const capture = new LogCapture();
    const logger = createLogger({ service: "kit-test", level: "info", destination: capture });
    expect(await runMigrations(url, dir, logger)).toEqual(["0002_message_keys"]);
    expect(await indexValid('"emails_message_id_key"')).toBe(true);
    expect(await recorded()).toEqual(["0001_emails", "0002_message_keys"]);
    expect(capture.entries()).toContainEqual(
      expect.objectContaining({
        migration: "0002_message_keys",
        index: '"emails_message_id_key"',
        msg: expect.stringMatching(/invalid index/),
      }),
    );
    await expect(db.query("INSERT INTO emails (inbox_id, subject, message_id) VALUES (gen_random_uuid(), 'x', 'dup')")).rejects.toThrow(
      /duplicate key/,
    );
  });

  it("when a second runner starts while the first builds concurrently, then it waits for the lock without a deadlock and applies nothing", async () => {
    const holder = await openWriter();
    migration(
      "0002_subject_index",
      `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_subject_idx" ON "emails" ("subject");\n`,
    );
    const first = runMigrations(url, dir);
    await buildInProgress();
    const secondUrl = new URL(url);
    secondUrl.searchParams.set("application_name", "second-runner");
    const second = runMigrations(secondUrl.toString(), dir);
    // the second runner has asked for the lock (and been refused) at least once
    await waitFor(
      async () =>
        (await db.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'second-runner' AND query LIKE '%advisory_lock%'"))
          .rowCount === 1,
      { what: "the second runner to ask for the lock" },
    );
    // the build now waits for the older snapshots of its database (a blocked lock request would be one)
    await holder.query("COMMIT");
    expect(await first).toEqual(["0002_subject_index"]);
    expect(await second).toEqual([]);
    expect(await indexValid('"emails_subject_idx"')).toBe(true);
  });
});
