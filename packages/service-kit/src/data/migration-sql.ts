/**
 * What the migration runner (db.ts, runMigrations) reads of a migration's SQL: whether it runs
 * outside a transaction, its statements one by one when it does, and the index a
 * `CREATE INDEX CONCURRENTLY` builds. The migration linter (deploy/local/migration-lint.mjs) reads
 * the same marker and splits statements the same way, for its rules.
 */

/**
 * The marker, on a line of its own before the first statement, of a migration that cannot run in
 * a transaction (`CREATE INDEX CONCURRENTLY`): the runner sends its statements one at a time,
 * outside any transaction, and records the migration once the last has succeeded.
 */
export const NO_TRANSACTION_MARKER = "-- migrate: no-transaction";

/** Whether the migration carries the no-transaction marker before its first statement. */
export function isNoTransaction(sql: string): boolean {
  for (const raw of sql.split("\n")) {
    const line = raw.trim();
    if (line === NO_TRANSACTION_MARKER) return true;
    if (line !== "" && !line.startsWith("--")) return false;
  }
  return false;
}

const DOLLAR_TAG = /^\$[A-Za-z_]*\$/;

/**
 * The statements of a migration, each as written (comments included, trimmed), split at the
 * semicolons outside comments, string literals, quoted identifiers and dollar-quoted bodies.
 * Statements that are only comments are left out.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let code = false; // whether the current statement has anything but comments and blanks
  let i = 0;
  const skipTo = (end: number) => (i = end === -1 ? sql.length : end);
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "-" && next === "-") skipTo(sql.indexOf("\n", i));
    else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      skipTo(end === -1 ? -1 : end + 2);
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      code = true;
      i = j + 1;
    } else if (c === "$" && DOLLAR_TAG.test(sql.slice(i, i + 64))) {
      const tag = (DOLLAR_TAG.exec(sql.slice(i, i + 64)) as RegExpExecArray)[0];
      const end = sql.indexOf(tag, i + tag.length);
      code = true;
      skipTo(end === -1 ? -1 : end + tag.length);
    } else if (c === ";") {
      if (code) out.push(sql.slice(start, i).trim());
      start = i + 1;
      code = false;
      i++;
    } else {
      if (!/\s/.test(c as string)) code = true;
      i++;
    }
  }
  if (code) out.push(sql.slice(start).trim());
  return out;
}

/** A statement with its comments removed and its blanks collapsed (string contents kept). */
function bare(statement: string): string {
  return statement
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const CONCURRENT_INDEX = new RegExp(
  String.raw`^create\s+(?:unique\s+)?index\s+concurrently\s+(?:if\s+not\s+exists\s+)?(${IDENT}(?:\.${IDENT})?)\s+on\s`,
  "i",
);

/**
 * The index a `CREATE INDEX CONCURRENTLY` statement builds, as written (`"emails_subject_idx"`,
 * `public.emails_subject_idx`), for `to_regclass`; null for any other statement or an unnamed
 * index (whose name PostgreSQL picks, so a failed build cannot be found again: name every index).
 */
export function concurrentIndexName(statement: string): string | null {
  return CONCURRENT_INDEX.exec(bare(statement))?.[1] ?? null;
}
