// The migration linter: every services/*/prisma/migrations/<name>/migration.sql read against the
// rule for schema changes (docs/operations.md, "Changing the schema"). A release's migrations run
// while the previous release still serves (a rolling update; the migration Job runs first), so a
// migration must not take from the previous release anything it reads, nor hold a lock on a big
// table for longer than an instant:
//
//   drop-table, drop-column, rename          the previous release reads what went away
//   change-type                              rewrites the table under an exclusive lock; old code
//                                            may write values the new type refuses
//   set-not-null                             scans the table under an exclusive lock; the previous
//                                            release's inserts may leave the column out
//   add-column-not-null-without-default      refused on a table with rows; the previous release's
//                                            inserts leave the column out
//   add-column-volatile-default              rewrites the table (a volatile default is computed
//                                            per row)
//   index-not-concurrent                     CREATE INDEX on an existing big table holds its writes
//                                            for the whole build
//   constraint-not-valid                     ADD CONSTRAINT checks every row under a lock: FOREIGN KEY
//                                            and CHECK must be NOT VALID (then VALIDATE CONSTRAINT,
//                                            which takes a weaker lock), UNIQUE and PRIMARY KEY must
//                                            come USING INDEX (built CONCURRENTLY first)
//   concurrently-in-transaction              CONCURRENTLY cannot run in the transaction the runner
//                                            wraps a migration in: mark the file `-- migrate:
//                                            no-transaction`
//   no-transaction-statement                 a no-transaction migration holds only statements that
//                                            are safe to run again after a failure part way
//                                            (CREATE INDEX CONCURRENTLY IF NOT EXISTS, DROP INDEX
//                                            CONCURRENTLY IF EXISTS, ANALYZE, ...)
//
// "Existing" is a table an earlier migration of the same service created: what a migration does to
// a table it creates itself is never flagged. "Big" is every existing table except those of
// SMALL_TABLES, whose rows are bounded by configuration rather than by traffic.
//
// A finding is waived only by an entry of ALLOWED (migration-lint.allow.mjs), reviewed like code:
// the migrations already shipped, and the contract steps of later releases (a column the release
// before stopped reading). An entry that no longer matches a finding is an error too.
//
//   node deploy/local/migration-lint.mjs      lists the findings; exits 1 when any is not waived
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The marker, on a line of its own before the first statement, of a migration run outside a
 * transaction: the migration runner's (packages/service-kit/src/data/migration-sql.ts, which
 * splits such a migration into the statements it sends one at a time; the test checks both agree).
 */
export const NO_TRANSACTION_MARKER = "-- migrate: no-transaction";

/**
 * Tables whose row count is bounded by configuration (platform settings, providers, roles, the
 * setup row), per service: an index or constraint on them is built in milliseconds. Every other
 * existing table is treated as big. Add a table here only with that reason.
 */
export const SMALL_TABLES = {
  identity: ["platform_settings", "sso_providers", "sso_domain_mappings", "setup_admins"],
  tenancy: ["roles", "platform_config", "setup_state"],
  inbox: [],
  "webhook-dispatcher": [],
  "realtime-gateway": [],
};

/**
 * Splits SQL into statements at top-level semicolons. Comments are dropped; string literals
 * become `''`, dollar-quoted bodies (functions) `$$$$`, quoted identifiers keep their text without
 * quotes, and everything else is lower-cased, so rules match on plain words. Each statement keeps
 * the line it starts on.
 */
export function statements(sql) {
  const out = [];
  let text = "";
  let line = 1;
  let startLine = 0;
  const push = (s) => {
    if (startLine === 0 && s.trim() !== "") startLine = line;
    text += s;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "\n") {
      line++;
      text += " ";
      i++;
    } else if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      line += (sql.slice(i, stop).match(/\n/g) ?? []).length;
      text += " ";
      i = stop;
    } else if (c === "'") {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
        else if (sql[j] === "'") break;
        else j++;
      }
      line += (sql.slice(i, j).match(/\n/g) ?? []).length;
      push("''");
      i = j + 1;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end === -1 ? sql.length : end;
      push(sql.slice(i + 1, stop));
      i = stop + 1;
    } else if (c === "$" && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))[0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end === -1 ? sql.length : end + tag.length;
      line += (sql.slice(i, stop).match(/\n/g) ?? []).length;
      push("$$$$");
      i = stop;
    } else if (c === ";") {
      if (text.trim() !== "") out.push({ sql: text.replace(/\s+/g, " ").trim(), line: startLine });
      text = "";
      startLine = 0;
      i++;
    } else {
      push(c.toLowerCase());
      i++;
    }
  }
  if (text.trim() !== "") out.push({ sql: text.replace(/\s+/g, " ").trim(), line: startLine });
  return out;
}

/** Whether a migration's text carries the no-transaction marker before its first statement. */
export function isNoTransaction(sql) {
  for (const raw of sql.split("\n")) {
    const l = raw.trim();
    if (l === NO_TRANSACTION_MARKER) return true;
    if (l !== "" && !l.startsWith("--")) return false;
  }
  return false;
}

/** Splits an ALTER TABLE's actions at the commas outside parentheses. */
function actions(list) {
  const parts = [];
  let depth = 0;
  let current = "";
  for (const c of list) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += c;
  }
  if (current.trim() !== "") parts.push(current.trim());
  return parts;
}

const NAME = String.raw`(?:[a-z0-9_]+\.)?([a-zA-Z0-9_]+)`;
const VOLATILE = /\b(gen_random_uuid|uuid_generate_v[14]|random|clock_timestamp|timeofday|nextval)\s*\(/;

/** The statements of a no-transaction migration that are safe to run again after a failure part way. */
const RERUNNABLE = [
  /^create (unique )?index concurrently if not exists /,
  /^drop index concurrently if exists /,
  /^reindex (index|table) concurrently /,
  /^analyze\b/,
  /^vacuum\b(?! full)/,
  /^create extension if not exists /,
  /^set (local )?[a-z_.]+ (to|=) /,
];

/**
 * The findings of one migration: `{ rule, target, line, message }`. `existing` is the set of
 * tables earlier migrations created; `small` the existing tables that are not big. Returns the
 * tables this migration creates and drops beside its findings.
 */
export function lintMigration(sql, { existing = new Set(), small = new Set() } = {}) {
  const findings = [];
  const created = new Set();
  const dropped = new Set();
  const noTransaction = isNoTransaction(sql);
  const isExisting = (t) => existing.has(t) && !created.has(t);
  const isBig = (t) => isExisting(t) && !small.has(t);
  const flag = (rule, target, line, message) => findings.push({ rule, target, line, message });
  for (const { sql: s, line } of statements(sql)) {
    if (/\bconcurrently\b/.test(s) && !noTransaction)
      flag(
        "concurrently-in-transaction",
        s.slice(0, 60),
        line,
        `CONCURRENTLY cannot run in a transaction: put it in a migration of its own that begins with "${NO_TRANSACTION_MARKER}"`,
      );
    if (noTransaction && !RERUNNABLE.some((r) => r.test(s)))
      flag(
        "no-transaction-statement",
        s.slice(0, 60),
        line,
        "a no-transaction migration may stop part way and run again: only CREATE INDEX CONCURRENTLY IF NOT EXISTS, DROP INDEX CONCURRENTLY IF EXISTS, REINDEX ... CONCURRENTLY, ANALYZE, VACUUM, CREATE EXTENSION IF NOT EXISTS and SET belong in it; move the rest to a migration of its own",
      );
    let m;
    if ((m = new RegExp(`^create (?:unlogged )?table (?:if not exists )?${NAME}`).exec(s))) {
      created.add(m[1]);
      continue;
    }
    if ((m = /^drop table (?:if exists )?(.+?)(?: cascade| restrict)?$/.exec(s))) {
      for (const t of m[1].split(",").map((x) => x.trim().replace(/^[a-z0-9_]+\./, ""))) {
        if (isExisting(t))
          flag(
            "drop-table",
            t,
            line,
            `drops table ${t}, which the previous release reads: drop it a release after the code stopped using it`,
          );
        created.delete(t);
        dropped.add(t);
      }
      continue;
    }
    if (
      (m = new RegExp(`^create (?:unique )?index (concurrently )?(?:if not exists )?(?:([a-zA-Z0-9_]+) )?on (?:only )?${NAME}`).exec(s))
    ) {
      if (!m[1] && isBig(m[3]))
        flag(
          "index-not-concurrent",
          `${m[3]}.${m[2] ?? "(unnamed)"}`,
          line,
          `CREATE INDEX ${m[2] ?? ""} on ${m[3]} holds the table's writes for the whole build: CREATE INDEX CONCURRENTLY IF NOT EXISTS in a no-transaction migration`,
        );
      continue;
    }
    if ((m = new RegExp(`^alter table (?:if exists )?(?:only )?${NAME} (.*)$`).exec(s))) {
      const table = m[1];
      const rest = m[2];
      if ((m = /^rename to ([a-zA-Z0-9_]+)$/.exec(rest))) {
        if (isExisting(table))
          flag(
            "rename",
            table,
            line,
            `renames table ${table}, which the previous release reads: add the new table beside it (expand), move the code, drop it later`,
          );
        continue;
      }
      if ((m = /^rename (?:column )?([a-zA-Z0-9_]+) to ([a-zA-Z0-9_]+)$/.exec(rest))) {
        if (isExisting(table))
          flag(
            "rename",
            `${table}.${m[1]}`,
            line,
            `renames ${table}.${m[1]}, which the previous release reads: add ${m[2]} beside it, write both, drop ${m[1]} a release later`,
          );
        continue;
      }
      if (!isExisting(table)) continue;
      for (const action of actions(rest)) {
        if ((m = /^drop (?:column )?(?:if exists )?([a-zA-Z0-9_]+)(?: cascade| restrict)?$/.exec(action)) && m[1] !== "constraint") {
          flag(
            "drop-column",
            `${table}.${m[1]}`,
            line,
            `drops ${table}.${m[1]}, which the previous release reads: drop it a release after the code stopped using it`,
          );
        } else if ((m = /^alter (?:column )?([a-zA-Z0-9_]+) (?:set data )?type /.exec(action))) {
          flag(
            "change-type",
            `${table}.${m[1]}`,
            line,
            `changes the type of ${table}.${m[1]}: add a column of the new type, fill it, move the code, drop the old one later`,
          );
        } else if ((m = /^alter (?:column )?([a-zA-Z0-9_]+) set not null$/.exec(action))) {
          flag(
            "set-not-null",
            `${table}.${m[1]}`,
            line,
            `SET NOT NULL on ${table}.${m[1]} scans the table under an exclusive lock: add CHECK (${m[1]} IS NOT NULL) NOT VALID, VALIDATE it, then SET NOT NULL (PostgreSQL uses the valid check)`,
          );
        } else if (
          (m = /^add (?:column )?(?:if not exists )?([a-zA-Z0-9_]+) (.*)$/.exec(action)) &&
          !/^(constraint|primary|unique|foreign|check|exclude)$/.test(m[1])
        ) {
          const column = m[1];
          const definition = m[2];
          const def = /\bdefault\b(.*)$/.exec(definition);
          if (/\bnot null\b/.test(definition) && !def && !/\bgenerated\b/.test(definition))
            flag(
              "add-column-not-null-without-default",
              `${table}.${column}`,
              line,
              `${table}.${column} NOT NULL without a DEFAULT: the table's rows and the previous release's inserts have no value for it; give it a default, or add it nullable and tighten it a release later`,
            );
          if (def && VOLATILE.test(def[1]))
            flag(
              "add-column-volatile-default",
              `${table}.${column}`,
              line,
              `a volatile DEFAULT on ${table}.${column} rewrites the whole table: add the column without it, set the default, fill the rows in batches`,
            );
          if (/\bgenerated always as\b.*\bstored\b/.test(definition))
            flag(
              "add-column-volatile-default",
              `${table}.${column}`,
              line,
              `a stored generated column on ${table}.${column} rewrites the whole table under an exclusive lock`,
            );
        } else if ((m = /^add (?:constraint ([a-zA-Z0-9_]+) )?(foreign key|check|unique|primary key|exclude)\b(.*)$/.exec(action))) {
          const kind = m[2];
          const target = m[1] ?? `${table} ${kind}`;
          if ((kind === "foreign key" || kind === "check") && !/\bnot valid\b/.test(m[3]))
            flag(
              "constraint-not-valid",
              target,
              line,
              `ADD CONSTRAINT ${kind.toUpperCase()} on ${table} checks every row under a lock: add it NOT VALID, then VALIDATE CONSTRAINT`,
            );
          if ((kind === "unique" || kind === "primary key" || kind === "exclude") && !/\busing index\b/.test(m[3]) && isBig(table))
            flag(
              "constraint-not-valid",
              target,
              line,
              `ADD CONSTRAINT ${kind.toUpperCase()} on ${table} builds its index under a lock: CREATE UNIQUE INDEX CONCURRENTLY, then ADD CONSTRAINT ... USING INDEX`,
            );
        }
      }
    }
  }
  return { findings, created, dropped, noTransaction };
}

/** Every service's migrations directory, as `[service, dir]`. */
export function migrationDirs(root) {
  const services = path.join(root, "services");
  return readdirSync(services)
    .map((s) => [s, path.join(services, s, "prisma", "migrations")])
    .filter(([, dir]) => existsSync(dir))
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The findings of a service's migrations in order, each with its `service` and `migration`. */
export function lintService(service, dir, small = SMALL_TABLES[service] ?? []) {
  const existing = new Set();
  const findings = [];
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const migration of names) {
    const file = path.join(dir, migration, "migration.sql");
    if (!existsSync(file)) continue;
    const sql = readFileSync(file, "utf8");
    const sha256 = createHash("sha256").update(sql).digest("hex").slice(0, 16);
    const result = lintMigration(sql, { existing, small: new Set(small) });
    findings.push(...result.findings.map((f) => ({ service, migration, sha256, ...f })));
    for (const t of result.created) existing.add(t);
    for (const t of result.dropped) existing.delete(t);
  }
  return findings;
}

const key = (f) => `${f.service}/${f.migration} ${f.rule} ${f.target}`;

/**
 * Lints every service's migrations against the allow-list: `{ findings, waived, stale }`, the
 * findings no entry waives (or whose entry was for the file before it was edited), those an entry
 * does, and the entries that match no finding.
 */
export function lintRepository(root, allowed) {
  const all = migrationDirs(root).flatMap(([service, dir]) => lintService(service, dir));
  const entries = new Map(allowed.map((a) => [key(a), a]));
  const used = new Set();
  const findings = [];
  const waived = [];
  for (const f of all) {
    const entry = entries.get(key(f));
    if (entry && entry.sha256 !== f.sha256) {
      used.add(key(f));
      findings.push({
        ...f,
        message: `${f.message} (waived for the file as shipped, sha256 ${entry.sha256}; it is ${f.sha256} now: shipped migrations are never edited)`,
      });
    } else if (entry) {
      used.add(key(f));
      waived.push(f);
    } else findings.push(f);
  }
  const stale = allowed.filter((a) => !used.has(key(a)));
  return { findings, waived, stale };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(import.meta.dirname, "../..");
  const { ALLOWED } = await import("./migration-lint.allow.mjs");
  const { findings, waived, stale } = lintRepository(root, ALLOWED);
  for (const f of findings)
    process.stdout.write(`services/${f.service}/prisma/migrations/${f.migration}/migration.sql:${f.line}: ${f.rule}: ${f.message}\n`);
  for (const a of stale) process.stdout.write(`migration-lint.allow.mjs: ${key(a)} waives nothing any more: remove it\n`);
  process.stdout.write(
    `${findings.length} finding(s), ${waived.length} waived by the allow-list, ${stale.length} stale allow-list entr(ies)\n`,
  );
  process.exit(findings.length + stale.length === 0 ? 0 : 1);
}
