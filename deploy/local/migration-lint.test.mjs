// The migration linter (migration-lint.mjs): each rule on a statement that breaks it and on its
// safe form, the SQL it must not be fooled by, the allow-list, and every service's migrations as
// they are in the tree.
//
//   node deploy/local/migration-lint.test.mjs      prints `N passed, N failed`
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ALLOWED } from "./migration-lint.allow.mjs";
import { NO_TRANSACTION_MARKER, lintMigration, lintRepository, statements } from "./migration-lint.mjs";

let passed = 0;
let failed = 0;
function check(ok, what, output = "") {
  process.stdout.write(`[migration-lint] ${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`${typeof output === "string" ? output : JSON.stringify(output, null, 2)}\n`);
  }
}

const existing = new Set(["emails", "inboxes", "roles"]);
const small = new Set(["roles"]);
const rules = (sql) => lintMigration(sql, { existing, small }).findings.map((f) => `${f.rule} ${f.target}`);
/** `sql` breaks `rule` on `target`, and `safe` (its rewrite) breaks nothing. */
function pair(what, sql, expected, safe) {
  const found = rules(sql);
  check(
    found.some((f) => f === expected || f.startsWith(`${expected} `)),
    `${what}: flagged as ${expected}`,
    found,
  );
  if (safe !== undefined) {
    const clean = rules(safe);
    check(clean.length === 0, `${what}, written the safe way: nothing flagged`, clean);
  }
}

pair(
  "a column of an existing table dropped",
  'ALTER TABLE "inboxes" DROP COLUMN "email_count";',
  "drop-column inboxes.email_count",
  'CREATE TABLE "drafts" ("id" uuid, "x" text); ALTER TABLE "drafts" DROP COLUMN "x";',
);
pair(
  "an existing table dropped",
  'DROP TABLE IF EXISTS "emails" CASCADE;',
  "drop-table emails",
  'CREATE TABLE "t" (id int); DROP TABLE "t";',
);
pair("an existing table renamed", 'ALTER TABLE "emails" RENAME TO "messages";', "rename emails");
pair("a column renamed", 'ALTER TABLE "emails" RENAME COLUMN "subject" TO "title";', "rename emails.subject");
pair(
  "SET NOT NULL on an existing table",
  'ALTER TABLE "inboxes" ALTER COLUMN "ttl_ms" SET NOT NULL;',
  "set-not-null inboxes.ttl_ms",
  'ALTER TABLE "inboxes" ADD CONSTRAINT "ttl_set" CHECK ("ttl_ms" IS NOT NULL) NOT VALID;',
);
pair(
  "a NOT NULL column without a default added to an existing table",
  'ALTER TABLE "emails" ADD COLUMN "folder" TEXT NOT NULL;',
  "add-column-not-null-without-default emails.folder",
  `ALTER TABLE "emails" ADD COLUMN "folder" TEXT NOT NULL DEFAULT 'inbox'; ALTER TABLE "emails" ADD COLUMN "note" TEXT;`,
);
pair(
  "a column's type changed",
  'ALTER TABLE "emails" ALTER COLUMN "size_bytes" SET DATA TYPE BIGINT;',
  "change-type emails.size_bytes",
  'ALTER TABLE "emails" ADD COLUMN "size_bytes_big" BIGINT;',
);
pair("a column's type changed (short form)", 'ALTER TABLE "emails" ALTER "size_bytes" TYPE BIGINT;', "change-type emails.size_bytes");
pair(
  "an index built on an existing big table in the transaction",
  'CREATE INDEX "emails_subject_idx" ON "emails"("subject");',
  "index-not-concurrent emails.emails_subject_idx",
  `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_subject_idx" ON "emails"("subject");`,
);
check(rules('CREATE INDEX "roles_rank_idx" ON "roles"("rank");').length === 0, "an index on a small table (SMALL_TABLES) is not flagged");
check(
  rules('CREATE TABLE "notes" ("id" uuid); CREATE INDEX "notes_id_idx" ON "notes"("id");').length === 0,
  "an index on a table the same migration creates is not flagged",
);
pair(
  "CONCURRENTLY in a migration run in a transaction",
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_subject_idx" ON "emails"("subject");',
  "concurrently-in-transaction",
);
pair(
  "a no-transaction migration's index build that cannot run twice",
  `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY "emails_subject_idx" ON "emails"("subject");`,
  "no-transaction-statement",
);
pair(
  "a data change in a no-transaction migration",
  `${NO_TRANSACTION_MARKER}\nUPDATE "emails" SET "is_read" = true;`,
  "no-transaction-statement update emails",
);
check(
  rules(`-- rebuilt without holding writes\n${NO_TRANSACTION_MARKER}\nDROP INDEX CONCURRENTLY IF EXISTS "a";\nANALYZE "emails";`).length ===
    0,
  "the marker after a leading comment counts; DROP INDEX CONCURRENTLY IF EXISTS and ANALYZE are re-runnable",
);
check(
  lintMigration(`CREATE TABLE "x" (id int);\n${NO_TRANSACTION_MARKER}\n`).noTransaction === false,
  "the marker after the first statement does not count",
);
pair(
  "a foreign key added to an existing table, validated at once",
  'ALTER TABLE "emails" ADD CONSTRAINT "emails_inbox_fk" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id");',
  "constraint-not-valid emails_inbox_fk",
  'ALTER TABLE "emails" ADD CONSTRAINT "emails_inbox_fk" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") NOT VALID;',
);
pair(
  "a CHECK added to an existing table, validated at once",
  'ALTER TABLE "emails" ADD CONSTRAINT "size_positive" CHECK ("size_bytes" >= 0);',
  "constraint-not-valid size_positive",
  'ALTER TABLE "emails" VALIDATE CONSTRAINT "size_positive";',
);
pair(
  "a UNIQUE constraint building its own index on a big table",
  'ALTER TABLE "emails" ADD CONSTRAINT "emails_message_key" UNIQUE ("message_id");',
  "constraint-not-valid emails_message_key",
  'ALTER TABLE "emails" ADD CONSTRAINT "emails_message_key" UNIQUE USING INDEX "emails_message_idx";',
);
pair(
  "a column with a volatile default added to an existing table",
  'ALTER TABLE "emails" ADD COLUMN "token" UUID NOT NULL DEFAULT gen_random_uuid();',
  "add-column-volatile-default emails.token",
);
check(
  JSON.stringify(rules('ALTER TABLE "inboxes" DROP COLUMN "email_count",\nDROP COLUMN "unread_count";')) ===
    JSON.stringify(["drop-column inboxes.email_count", "drop-column inboxes.unread_count"]),
  "each action of a multi-action ALTER TABLE is read",
  rules('ALTER TABLE "inboxes" DROP COLUMN "email_count",\nDROP COLUMN "unread_count";'),
);
check(
  rules(
    [
      "-- ALTER TABLE emails DROP COLUMN subject;",
      "/* DROP TABLE emails; */",
      `INSERT INTO "inboxes" ("address") VALUES ('x; DROP TABLE emails; -- ');`,
      'CREATE FUNCTION "f"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DROP TABLE emails; RETURN NULL; END $$;',
      'CREATE FUNCTION "g"() RETURNS void LANGUAGE sql AS $body$ ALTER TABLE emails DROP COLUMN subject $body$;',
    ].join("\n"),
  ).length === 0,
  "comments, string literals and function bodies are not read as statements",
);
const split = statements('CREATE TABLE "A" (x int);\n\n-- c\nALTER TABLE a\n  DROP COLUMN x;');
check(
  split.length === 2 && split[0].sql === "create table A (x int)" && split[1].line === 4,
  "statements keep their quoted names' case, lower-case the rest, and know their line",
  split,
);

// the allow-list against a tree of its own: a waiver, an edited waived file, a stale entry
const root = mkdtempSync(path.join(os.tmpdir(), "bb-migration-lint-"));
try {
  const dir = (name) => path.join(root, "services", "svc", "prisma", "migrations", name);
  const write = (name, sql) => {
    mkdirSync(dir(name), { recursive: true });
    writeFileSync(path.join(dir(name), "migration.sql"), sql);
  };
  write("0001_init", 'CREATE TABLE "things" ("id" uuid, "old" text);');
  write("0002_contract", 'ALTER TABLE "things" DROP COLUMN "old";');
  const bare = lintRepository(root, []);
  check(
    bare.findings.length === 1 && bare.findings[0].rule === "drop-column" && bare.findings[0].migration === "0002_contract",
    "a table an earlier migration created is an existing one in the next",
    bare.findings,
  );
  const sha256 = bare.findings[0]?.sha256;
  const entry = {
    service: "svc",
    migration: "0002_contract",
    sha256,
    rule: "drop-column",
    target: "things.old",
    reason: "read by no release since 1.2",
  };
  const waived = lintRepository(root, [entry]);
  check(
    waived.findings.length === 0 && waived.waived.length === 1 && waived.stale.length === 0,
    "an allow-list entry waives its finding",
    waived,
  );
  write("0002_contract", 'ALTER TABLE "things" DROP COLUMN "old"; -- edited');
  const edited = lintRepository(root, [entry]);
  check(
    edited.findings.length === 1 && /never edited/.test(edited.findings[0].message),
    "when a waived migration is edited afterwards, then its finding is back",
    edited.findings,
  );
  const stale = lintRepository(root, [entry, { ...entry, target: "things.gone" }]);
  check(
    stale.stale.length === 1 && stale.stale[0].target === "things.gone",
    "an entry that waives nothing is reported as stale",
    stale.stale,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

// the runner (packages/service-kit/src/data/migration-sql.ts) reads the same marker
const runnerSql = readFileSync(path.resolve(import.meta.dirname, "../../packages/service-kit/src/data/migration-sql.ts"), "utf8");
check(
  runnerSql.includes(`export const NO_TRANSACTION_MARKER = ${JSON.stringify(NO_TRANSACTION_MARKER)};`),
  "the linter's no-transaction marker is the migration runner's",
);

// the tree as it is: every finding of a shipped migration is on the reviewed list, and nothing else
const tree = lintRepository(path.resolve(import.meta.dirname, "../.."), ALLOWED);
check(
  tree.findings.length === 0,
  "every service's migrations keep the previous release working (or are on the reviewed allow-list)",
  tree.findings
    .map((f) => `services/${f.service}/prisma/migrations/${f.migration}/migration.sql:${f.line}: ${f.rule}: ${f.message}`)
    .join("\n"),
);
check(tree.stale.length === 0, "every allow-list entry still waives a finding", tree.stale);
check(
  ALLOWED.every((a) => typeof a.reason === "string" && a.reason.length > 10 && /^[0-9a-f]{16}$/.test(a.sha256)),
  "every allow-list entry says why and pins its file",
);

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
